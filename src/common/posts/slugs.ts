import type { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import { sanitizeTitle, uniqueSlug } from '../text/slug.js';
import type { Language } from '../../config/config.js';
import { escapeLike, LIKE_ESCAPE } from '../../database/like.js';

/** MySQL/MariaDB ER_DUP_ENTRY or SQLite's UNIQUE constraint failure. */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; errno?: number; message?: string };
  return (
    e?.code === 'ER_DUP_ENTRY' ||
    e?.errno === 1062 ||
    e?.code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    /UNIQUE constraint failed/i.test(e?.message ?? '')
  );
}

/**
 * Gives record `id` the slug `base` or the first free `base-2`, `base-3`, ... among records of
 * the same table and language (WordPress wp_unique_post_slug). Safe under concurrent writers:
 * the unique (language, slug) index decides, and a lost race moves on to the next candidate.
 */
export async function assignUniqueSlug<T extends ObjectLiteral>(
  manager: EntityManager,
  target: EntityTarget<T>,
  id: number,
  rawBase: string,
  language: Language,
): Promise<string> {
  const base = sanitizeTitle(rawBase) || String(id);
  const repo = manager.getRepository(target);
  // Candidates that lost a race to a writer that has not committed yet. (Write transactions
  // run in READ COMMITTED, see writeTransaction, so committed slugs are always seen.)
  const lost = new Set<string>();
  for (let attempt = 0; attempt < 200; attempt++) {
    const taken = new Set(
      (
        await repo
          .createQueryBuilder('p')
          .select('p.slug', 'slug')
          .where('p.language = :language', { language })
          .andWhere(`(p.slug = :base OR p.slug LIKE :pattern ${LIKE_ESCAPE})`, {
            base,
            pattern: `${escapeLike(base)}-%`,
          })
          .andWhere('p.id <> :id', { id })
          .getRawMany<{ slug: string }>()
      ).map((r) => r.slug),
    );
    lost.forEach((s) => taken.add(s));
    // After a lost race, skip a random few free candidates: writers that lost together would
    // otherwise all retry the same next slug, and a late one could lose again and again.
    let candidate = uniqueSlug(base, taken);
    for (
      let skip = lost.size ? Math.floor(Math.random() * Math.min(4 * lost.size, 40)) : 0;
      skip > 0;
      skip--
    ) {
      taken.add(candidate);
      candidate = uniqueSlug(base, taken);
    }
    try {
      await repo.update({ id } as never, { slug: candidate } as never);
      return candidate;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      lost.add(candidate);
    }
  }
  throw new Error(`could not find a free slug for "${base}"`);
}
