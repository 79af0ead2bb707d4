import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { Language } from '../config/config.js';

/**
 * A category or a tag (WordPress `wp_terms` + `wp_term_taxonomy` in one row). Categories and tags
 * share this table's id sequence, as WordPress terms do (BEHAVIOR §1.6).
 */
@Entity('terms')
@Index('IDX_terms_slug', ['taxonomy', 'language', 'slug'], { unique: true })
@Index('IDX_terms_name', ['taxonomy', 'language', 'name'])
@Index('IDX_terms_translation', ['translationGroup', 'language'], { unique: true })
export class TermEntity {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id!: number;

  /** WordPress taxonomy name: `cal_events_cat` or `post_tag` (see taxonomy.ts). */
  @Column({ type: 'varchar', length: 32 })
  taxonomy!: string;

  /** Stored "as text" and HTML-escaped (`A &amp; B`), as WordPress stores term names. */
  @Column({ type: 'varchar', length: 200 })
  name!: string;

  /** Unique per taxonomy and language. */
  @Column({ type: 'varchar', length: 200 })
  slug!: string;

  /** Basic inline HTML only (kses `$allowedtags`). */
  @Column({ type: 'text' })
  description!: string;

  /** Parent category id, 0 for none (always 0 for tags). */
  @Index('IDX_terms_parent')
  @Column({ type: 'integer', default: 0 })
  parent!: number;

  @Column({ type: 'varchar', length: 5 })
  language!: Language;

  /** Translations share a group id (the id of one of them); NULL while the term has none. */
  @Column({ name: 'translation_group', type: 'integer', nullable: true })
  translationGroup!: number | null;

  /**
   * Its links to events of its language with status `publish`, kept by the writes of links
   * (EventTermsRepository.addPublished, recountPublished); never written through the entity.
   */
  @Column({
    name: 'published_count',
    type: 'integer',
    default: 0,
    select: false,
    insert: false,
    update: false,
  })
  publishedCount?: number;
}
