import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * An image record (BEHAVIOR §4.6, Service): the plugin's media attachment reduced to its URL.
 * Ids come from the shared post sequence (kind `image`); one record per URL, reused by every
 * event, venue and organizer that names it. The URL is never fetched (CONTRACT §6).
 */
@Entity('images')
@Index('IDX_images_url', ['urlHash'], { unique: true })
export class ImageEntity {
  @PrimaryColumn({ type: 'integer' })
  id!: number;

  @Column({ type: 'varchar', length: 2048 })
  url!: string;

  /** sha256 of the URL, hex: URLs are too long for a unique index of their own on MySQL. */
  @Column({ name: 'url_hash', type: 'varchar', length: 64 })
  urlHash!: string;
}
