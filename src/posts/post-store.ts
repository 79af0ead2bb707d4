import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  DataSource,
  type EntityManager,
  type EntityTarget,
  type ObjectLiteral,
  type Repository,
} from 'typeorm';
import type { Language } from '../config/config.js';
import { escapeLike, LIKE_ESCAPE } from '../database/like.js';
import { isUniqueViolation } from '../database/unique-violation.js';
import { sanitizeTitle, uniqueSlug } from '../common/text/slug.js';
import { ImageEntity } from './image.entity.js';
import { imageIdOf } from './image-ids.js';
import { PostIdEntity, type PostKind } from './post-id.entity.js';

const imageUrlHash = (url: string) => createHash('sha256').update(url).digest('hex');

/**
 * A post id a write will need after another one it allocates first, numbered before it: an
 * event whose inline venue is created with it (WordPress numbers the venue after its event, but
 * the venue's duplicate check comes first). The allocation that takes it along
 * (`PostStore.allocateId`) sets `id`; when no other id was allocated, the write takes it alone
 * (`PostStore.allocateAhead`).
 */
export class IdAhead {
  id: number | undefined;

  constructor(readonly kind: PostKind) {}
}

/**
 * What every kind of post shares in the database: the one id sequence of all posts (events,
 * venues, organizers, images), unique slugs per language, and the image records shared by URL.
 * Writes run in the caller's transaction (`manager`); reads use the app's connection.
 */
@Injectable()
export class PostStore {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /**
   * Takes the next id of the shared post sequence for a record of `kind`: one statement. With
   * `ahead` not taken yet, the same statement takes its id first (`ahead.id`, the lower of the
   * two), where the database answers the rows it inserted (MariaDB, SQLite); MySQL 8 takes
   * `ahead`'s id in a statement of its own first, as before.
   */
  async allocateId(manager: EntityManager, kind: PostKind, ahead?: IdAhead): Promise<number> {
    if (manager.connection.options.type === 'mysql') {
      if (ahead && ahead.id === undefined) ahead.id = await this.allocateId(manager, ahead.kind);
      // MySQL 8 has no RETURNING: the driver reports the generated id.
      const result = (await manager.query('INSERT INTO post_ids (kind) VALUES (?)', [kind])) as {
        insertId?: number;
      };
      if (!result.insertId) throw new Error('could not allocate a post id');
      return result.insertId;
    }
    const kinds = ahead && ahead.id === undefined ? [ahead.kind, kind] : [kind];
    const rows = (await manager.query(
      `INSERT INTO post_ids (kind) VALUES ${kinds.map(() => '(?)').join(', ')} RETURNING id`,
      kinds,
    )) as Array<{ id: number | string }>;
    // Rows of one statement are numbered in their order: the lowest is the first row's.
    const ids = rows.map((row) => Number(row.id)).sort((a, b) => a - b);
    if (ids.length !== kinds.length) throw new Error('could not allocate a post id');
    if (kinds.length === 2) ahead!.id = ids[0];
    return ids.at(-1)!;
  }

  /** The id of `ahead`: the one an allocation took along, or a new one. */
  async allocateAhead(manager: EntityManager, ahead: IdAhead): Promise<number> {
    return (ahead.id ??= await this.allocateId(manager, ahead.kind));
  }

  /** The kind behind a post id, or null when the id was never used. */
  async kindOf(id: number, manager: EntityManager = this.ds.manager): Promise<PostKind | null> {
    const row = await manager.findOne(PostIdEntity, {
      where: { id },
      select: { id: true, kind: true },
    });
    return row?.kind ?? null;
  }

  /**
   * Gives record `id` the slug `base` or the first free `base-2`, `base-3`, ... among records
   * of the same table and language (as WordPress numbers clashing slugs). Safe under concurrent
   * writers: the unique (language, slug) index decides, and a lost race moves on to the next
   * candidate.
   */
  assignSlug<T extends ObjectLiteral>(
    manager: EntityManager,
    target: EntityTarget<T>,
    id: number,
    rawBase: string,
    language: Language,
  ): Promise<string> {
    const repo = manager.getRepository(target);
    return this.withFreeSlug(repo, id, rawBase, language, async (slug) => {
      await repo.update({ id } as never, { slug } as never);
    });
  }

  /**
   * Writes the new `record` with the slug `assignSlug` would give it, in one statement:
   * `insert` writes the row as it is, its `slug` set (and set again after a lost race).
   */
  async insertWithSlug<T extends ObjectLiteral>(
    manager: EntityManager,
    target: EntityTarget<T>,
    record: { id: number; slug: string | null; language: Language },
    rawBase: string,
    insert: () => Promise<void>,
  ): Promise<void> {
    await this.withFreeSlug(
      manager.getRepository(target),
      record.id,
      rawBase,
      record.language,
      async (slug) => {
        record.slug = slug;
        await insert();
      },
    );
  }

  /** Calls `write` with the first free slug from `rawBase` until the unique index accepts one. */
  private async withFreeSlug<T extends ObjectLiteral>(
    repo: Repository<T>,
    id: number,
    rawBase: string,
    language: Language,
    write: (slug: string) => Promise<void>,
  ): Promise<string> {
    const base = sanitizeTitle(rawBase) || String(id);
    // Candidates that lost a race to a writer that has not committed yet. (Write transactions
    // run in READ COMMITTED, see Writes, so committed slugs are always seen.)
    const lost = new Set<string>();
    // Most records are the first of their name: the base itself is tried before any look-up
    // (one statement instead of two); when the index refuses it, the look-up below sees the
    // committed holder (not a lost race: no candidates are skipped for it).
    try {
      await write(base);
      return base;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
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
        await write(candidate);
        return candidate;
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        lost.add(candidate);
      }
    }
    throw new Error(`could not find a free slug for "${base}"`);
  }

  /**
   * The id of the image record of `url` (BEHAVIOR §4.6, §7.1.5): the existing one, or a new one
   * with an id of the shared post sequence. Runs in the caller's write transaction; a writer
   * that loses the race to create the same URL takes the winner's record.
   */
  async imageIdFor(manager: EntityManager, url: string | null): Promise<number | null> {
    if (!url) return null;
    const urlHash = imageUrlHash(url);
    const find = () => manager.findOne(ImageEntity, { where: { urlHash }, select: { id: true } });
    const existing = await find();
    if (existing) return existing.id;
    const id = await this.allocateId(manager, 'image');
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

  /**
   * CONTRACT §6 "Images": an `image` that is the id of an image record this service holds
   * becomes that record's URL, so that the write links the very same record (imageIdFor finds
   * it by its URL). Every other value, an unknown id included, is answered as given: the
   * caller's validation refuses what is no URL (400).
   */
  async imageInput(value: unknown): Promise<unknown> {
    const id = imageIdOf(value);
    if (id === undefined) return value;
    const image = await this.ds.manager.findOne(ImageEntity, {
      where: { id },
      select: { id: true, url: true },
    });
    return image ? image.url : value;
  }
}
