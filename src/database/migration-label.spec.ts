import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { migrations } from './migrations/index.js';
import { migrationLabel } from './migration-label.js';

describe('migrationLabel', () => {
  it('names a migration as its file is named', () => {
    expect(migrationLabel('InitialSchema1763800000000')).toBe('1763800000000-initial-schema');
    expect(migrationLabel('Images1764300000000')).toBe('1764300000000-images');
    expect(migrationLabel('not-a-migration')).toBe('not-a-migration');
  });

  it('gives every migration the name of its file', () => {
    const files = readdirSync(join(__dirname, 'migrations'))
      .filter((f) => /^\d{13}-/.test(f))
      .map((f) => f.replace(/\.ts$/, ''))
      .sort();
    const labels = migrations.map((m) =>
      migrationLabel(new (m as new () => { name: string })().name),
    );
    expect(labels.sort()).toEqual(files);
  });
});
