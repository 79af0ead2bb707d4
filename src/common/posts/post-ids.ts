import type { EntityManager } from 'typeorm';
import { PostIdEntity, type PostKind } from './post-id.entity.js';

/** Takes the next id of the shared post sequence for a record of `kind`. */
export async function allocatePostId(manager: EntityManager, kind: PostKind): Promise<number> {
  const result = await manager.insert(PostIdEntity, { kind });
  const id = result.identifiers[0]?.id as number | undefined;
  if (!id) throw new Error('could not allocate a post id');
  return id;
}

/** The kind behind a post id, or null when the id was never used. */
export async function postKindOf(manager: EntityManager, id: number): Promise<PostKind | null> {
  const row = await manager.findOne(PostIdEntity, {
    where: { id },
    select: { id: true, kind: true },
  });
  return row?.kind ?? null;
}
