import { createHash } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { ImageEntity } from './image.entity.js';
import { allocatePostId } from './post-ids.js';
import { isUniqueViolation } from './slugs.js';

export const imageUrlHash = (url: string) => createHash('sha256').update(url).digest('hex');

/**
 * The id of the image record of `url` (BEHAVIOR §4.6, §7.1.5): the existing one, or a new one
 * with an id of the shared post sequence. Runs in the caller's write transaction; a writer that
 * loses the race to create the same URL takes the winner's record.
 */
export async function imageIdFor(
  manager: EntityManager,
  url: string | null,
): Promise<number | null> {
  if (!url) return null;
  const urlHash = imageUrlHash(url);
  const find = () => manager.findOne(ImageEntity, { where: { urlHash }, select: { id: true } });
  const existing = await find();
  if (existing) return existing.id;
  const id = await allocatePostId(manager, 'image');
  try {
    await manager.insert(ImageEntity, { id, url, urlHash });
    return id;
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const winner = await find();
    if (!winner) throw error;
    return winner.id;
  }
}
