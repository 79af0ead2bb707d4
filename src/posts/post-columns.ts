import { Column, PrimaryColumn } from 'typeorm';
import { DateTimeColumn } from '../database/columns.js';
import type { Language } from '../config/config.js';
import type { PostStatus } from '../auth/post-policy.js';
import { webUrlColumn } from '../common/http/web-url.js';

/**
 * Columns every post (event, venue, organizer) has, like WordPress `wp_posts`. Ids come from the
 * shared `post_ids` sequence (allocatePostId), so the primary key is not generated here.
 */
export abstract class PostColumns {
  @PrimaryColumn({ type: 'integer' })
  id!: number;

  @Column({ name: 'author_id', type: 'integer', default: 0 })
  authorId!: number;

  @Column({ type: 'varchar', length: 20 })
  status!: PostStatus;

  /** Raw title (venue/organizer name); rendered on output. */
  @Column({ type: 'text' })
  title!: string;

  /** NULL while unset (unpublished drafts), so the unique (language, slug) index allows many. */
  @Column({ type: 'varchar', length: 200, nullable: true })
  slug!: string | null;

  @Column({ type: 'text' })
  description!: string;

  @Column({ type: 'text' })
  excerpt!: string;

  /** Post password (CONTRACT §6); '' when the record is not protected. */
  @Column({ type: 'varchar', length: 255, default: '' })
  password!: string;

  /** Publication date, site-local wall clock. */
  @DateTimeColumn('date')
  date!: string;

  /** Publication date in UTC; NULL is WordPress's "0000-00-00 00:00:00" (never set). */
  @DateTimeColumn('date_utc', { nullable: true })
  dateUtc!: string | null;

  @DateTimeColumn('modified')
  modified!: string;

  @DateTimeColumn('modified_utc')
  modifiedUtc!: string;

  @Column({
    name: 'image_url',
    type: 'varchar',
    length: 2048,
    nullable: true,
    transformer: webUrlColumn(null),
  })
  imageUrl!: string | null;

  /** The image record of `imageUrl` (images, BEHAVIOR §4.6); set on every write from the URL. */
  @Column({ name: 'image_id', type: 'integer', nullable: true })
  imageId!: number | null;

  @Column({ type: 'varchar', length: 5 })
  language!: Language;

  /**
   * Translations share a group id (the id of one of them); NULL while the record has none. Each
   * entity declares the unique (translation_group, language) index: one member per language.
   */
  @Column({ name: 'translation_group', type: 'integer', nullable: true })
  translationGroup!: number | null;
}
