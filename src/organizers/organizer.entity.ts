import { Column, Entity, Index } from 'typeorm';
import { PostColumns } from '../posts/post-columns.js';
import { webUrlColumn } from '../common/http/web-url.js';

/** An organizer (TEC `tribe_organizer` post plus its `_Organizer*` meta), table `organizers`. */
@Entity('organizers')
@Index('IDX_organizers_slug', ['language', 'slug'], { unique: true })
@Index('IDX_organizers_translation', ['translationGroup', 'language'], { unique: true })
// Archive order with the visibility columns: a page's ids come from the index alone.
@Index('IDX_organizers_archive', ['language', 'date', 'id', 'status', 'dateUtc', 'authorId'])
@Index('IDX_organizers_author', ['authorId'])
// The duplicate check by name: an expression or prefix index (migration LinkedTitleIndex).
@Index('IDX_organizers_title', { synchronize: false })
export class OrganizerEntity extends PostColumns {
  @Column({ type: 'varchar', length: 255, default: '' })
  phone!: string;

  @Column({ type: 'varchar', length: 2048, default: '', transformer: webUrlColumn('') })
  website!: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  email!: string;
}
