import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { LANGUAGES } from '../config/config.js';
import { I18N_DIR } from '../config/paths.js';

/**
 * Every error message the code can send exists in every language: the codes given to `ApiError`
 * (message key `errors.<code>`) and the keys given to `t()`. Keys are found in the source, so a
 * new error code without its three translations fails here, not in front of a client.
 */
const SRC = join(I18N_DIR, '..', 'src');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') && !name.endsWith('.spec.ts') ? [path] : [];
  });
}

function usedKeys(): string[] {
  const keys = new Set<string>();
  for (const file of sources(SRC)) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/new ApiError\(\s*'([^']+)'/g)) keys.add(`errors.${m[1]}`);
    for (const m of text.matchAll(/\bt\(\s*'((?:errors|validation)\.[^']+)'/g)) keys.add(m[1]);
  }
  return [...keys].sort();
}

function lookup(lang: string, key: string): unknown {
  const [file, ...path] = key.split('.');
  const data = JSON.parse(readFileSync(join(I18N_DIR, lang, `${file}.json`), 'utf8')) as unknown;
  // Error codes may contain dots only as separators of nested keys; codes use - and _.
  return path.reduce<unknown>(
    (node, part) =>
      node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined,
    data,
  );
}

/** A text, or plural forms (`one`, `few`, `other`, ...) of which `other` is always there. */
function isMessage(node: unknown): boolean {
  if (typeof node === 'string') return true;
  if (!node || typeof node !== 'object') return false;
  const forms = Object.values(node);
  return (
    typeof (node as { other?: unknown }).other === 'string' &&
    forms.every((f) => typeof f === 'string')
  );
}

describe('error messages', () => {
  const keys = usedKeys();

  it('finds the keys the code uses', () => {
    expect(keys).toEqual(expect.arrayContaining(['errors.rest_no_route', 'validation.invalid']));
  });

  it.each([...LANGUAGES])('has every message in %s', (lang) => {
    const missing = keys.filter((key) => !isMessage(lookup(lang, key)));
    expect(missing).toEqual([]);
  });
});
