import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { POST_KINDS } from '../common/records/record-kinds.js';

/** The kinds behind a post id: the posts, and images. */
const ID_KINDS = [...POST_KINDS, 'image'] as const;
export type PostKind = (typeof ID_KINDS)[number];

/**
 * The shared id sequence of events, venues, organizers and images (WordPress posts and
 * attachments share one), and the
 * kind behind each id, so that `GET /events/{venue id}` can answer "not an event" (400).
 */
@Entity('post_ids')
export class PostIdEntity {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id!: number;

  @Column({ type: 'varchar', length: 20 })
  kind!: PostKind;
}
