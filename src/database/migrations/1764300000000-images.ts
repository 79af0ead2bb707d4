import { createHash } from 'node:crypto';
import { type QueryRunner, TableColumn, type TableOptions } from 'typeorm';
import { index, tablesMigration } from './schema-steps.js';

const POSTS = ['events', 'venues', 'organizers'] as const;

// The key the images table is unique on, as this migration defines it (the live code must keep
// computing the same value; a migration imports nothing from the application).
const imageUrlHash = (url: string) => createHash('sha256').update(url).digest('hex');

const IMAGES: TableOptions = {
  name: 'images',
  columns: [
    { name: 'id', type: 'integer', isPrimary: true },
    { name: 'url', type: 'varchar', length: '2048' },
    { name: 'url_hash', type: 'varchar', length: '64' },
  ],
  indices: [index('IDX_images_url', ['url_hash'], true)],
};

/**
 * Image records (BEHAVIOR §4.6, Service): one per URL, with an id of the shared post sequence,
 * so that `image.id` names the image and every record naming the same URL shows the same id
 * (it used to be the id of the record carrying the image). Records that already carry an image
 * URL get the image record of their URL.
 */
export class Images1764300000000 extends tablesMigration(IMAGES) {
  name = 'Images1764300000000';

  override async up(q: QueryRunner): Promise<void> {
    await super.up(q);
    for (const table of POSTS) {
      await q.addColumn(
        table,
        new TableColumn({ name: 'image_id', type: 'integer', isNullable: true }),
      );
    }
    const urls = new Set<string>();
    for (const table of POSTS) {
      const rows: Array<{ url: string }> = await q.query(
        `SELECT DISTINCT image_url AS url FROM ${table} WHERE image_url IS NOT NULL AND image_url <> ''`,
      );
      rows.forEach((r) => urls.add(r.url));
    }
    for (const url of urls) {
      await q.query(`INSERT INTO post_ids (kind) VALUES ('image')`);
      const [{ id }] = (await q.query('SELECT MAX(id) AS id FROM post_ids')) as Array<{
        id: number | string;
      }>;
      await q.query('INSERT INTO images (id, url, url_hash) VALUES (?, ?, ?)', [
        Number(id),
        url,
        imageUrlHash(url),
      ]);
      for (const table of POSTS) {
        await q.query(`UPDATE ${table} SET image_id = ? WHERE image_url = ?`, [Number(id), url]);
      }
    }
  }

  override async down(q: QueryRunner): Promise<void> {
    for (const table of POSTS) await q.dropColumn(table, 'image_id');
    await q.query(`DELETE FROM post_ids WHERE kind = 'image'`);
    await super.down(q);
  }
}
