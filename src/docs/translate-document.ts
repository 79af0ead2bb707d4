import type { OpenAPIObject } from '@nestjs/swagger';
import { DOC_KEY } from '../common/i18n/doc-key.js';

const TRANSLATED = new Set(['description', 'summary', 'title']);

/**
 * A deep copy of `document` with every description/summary/title that is an i18n key replaced by
 * its translation. Pure: the shared document is never mutated.
 */
export function translateDocument(
  document: OpenAPIObject,
  translate: (key: string) => string,
): OpenAPIObject {
  const walk = (node: unknown, key?: string): unknown => {
    if (typeof node === 'string') {
      return key && TRANSLATED.has(key) && DOC_KEY.test(node) ? translate(node) : node;
    }
    if (Array.isArray(node)) return node.map((item) => walk(item));
    if (node && typeof node === 'object') {
      return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, walk(v, k)]));
    }
    return node;
  };
  return walk(document) as OpenAPIObject;
}
