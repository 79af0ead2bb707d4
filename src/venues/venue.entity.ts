import { Column, Entity, Index } from 'typeorm';
import { FlagColumn } from '../database/columns.js';
import { PostColumns } from '../posts/post-columns.js';
import { webUrlColumn } from '../common/http/web-url.js';

/** A venue (TEC `tribe_venue` post plus its `_Venue*` meta), table `venues` of the initial migration. */
@Entity('venues')
@Index('IDX_venues_slug', ['language', 'slug'], { unique: true })
@Index('IDX_venues_translation', ['translationGroup', 'language'], { unique: true })
// Archive order with the visibility columns: a page's ids come from the index alone.
@Index('IDX_venues_archive', ['language', 'date', 'id', 'status', 'dateUtc', 'authorId'])
@Index('IDX_venues_author', ['authorId'])
// The events list's geofence: the venues of a bounding box.
@Index('IDX_venues_geo', ['geoLat', 'geoLng'])
// The duplicate check by name: an expression or prefix index (migration LinkedTitleIndex).
@Index('IDX_venues_title', { synchronize: false })
export class VenueEntity extends PostColumns {
  @Column({ type: 'varchar', length: 255, default: '' })
  address!: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  city!: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  country!: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  province!: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  state!: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  zip!: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  phone!: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  stateprovince!: string;

  @Column({ type: 'varchar', length: 2048, default: '', transformer: webUrlColumn('') })
  website!: string;

  /** TEC stores no map flag until one is set and reads that as true (BEHAVIOR §4.4). */
  @FlagColumn('show_map', { default: 1 })
  showMap!: boolean;

  @FlagColumn('show_map_link', { default: 1 })
  showMapLink!: boolean;

  @Column({ name: 'geo_lat', type: 'double', nullable: true })
  geoLat!: number | null;

  @Column({ name: 'geo_lng', type: 'double', nullable: true })
  geoLng!: number | null;
}
