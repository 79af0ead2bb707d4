import type { EntityManager } from 'typeorm';
import { ImageEntity } from './image.entity.js';

/**
 * `image` as a number: the `id` of an image object this service answered earlier (BEHAVIOR §4.6),
 * given as a JSON number or a string of digits (forms). Anything else is no image id.
 */
export function imageIdOf(value: unknown): number | undefined {
  const id =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && /^\d{1,15}$/.test(value)
        ? Number(value)
        : NaN;
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

/**
 * CONTRACT §6 "Images": an `image` that is the id of an image record this service holds becomes
 * that record's URL, so the write links the very same record (images.ts finds it by its URL).
 * Every other value, an unknown id included, is answered as given: the caller's validation
 * refuses what is no URL (400).
 */
export async function resolveImageInput(manager: EntityManager, value: unknown): Promise<unknown> {
  const id = imageIdOf(value);
  if (id === undefined) return value;
  const image = await manager.findOne(ImageEntity, {
    where: { id },
    select: { id: true, url: true },
  });
  return image ? image.url : value;
}
