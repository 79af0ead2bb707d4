import { ApiProperty, type ApiPropertyOptions } from '@nestjs/swagger';
import { LIMITS } from '../../common/http/limits.js';
import { TRANSLATION_OF_DOC } from '../../posts/translation-fields.js';
import { resourceDoc } from '../../common/i18n/doc-key.js';
import type { Taxonomy } from '../taxonomy.js';

/** `terms.doc.<key>` in i18n/<lang>/terms.json. */
export const termDoc = resourceDoc('terms');

const kind = (taxonomy: Taxonomy) => (taxonomy === 'category' ? 'categories' : 'tags');

/**
 * Documents inherited properties on a subclass, in the order given. Categories and tags share
 * their validators (in the base DTOs) but not their descriptions ("The event category name" /
 * "The event tag name"), and a class decorator runs after the property decorators, so this also
 * fixes the order of the documented parameters (BEHAVIOR §2: declaration order).
 */
export function DocumentProperties(properties: Record<string, ApiPropertyOptions>): ClassDecorator {
  return (target) => {
    for (const [name, options] of Object.entries(properties)) {
      ApiProperty(options)(target.prototype as object, name);
    }
  };
}

/** List parameters after `page` (BEHAVIOR §5.4), in the plugin's declaration order. */
export function listDocs(taxonomy: Taxonomy): Record<string, ApiPropertyOptions> {
  const optional = (key: string, extra: ApiPropertyOptions = {}): ApiPropertyOptions =>
    ({ required: false, description: termDoc(key), ...extra }) as ApiPropertyOptions;
  const idList = { type: 'array', items: { type: 'integer' }, maxItems: LIMITS.listItems } as const;
  return {
    per_page: optional(`${kind(taxonomy)}.per_page`, { type: 'integer', default: 10 }),
    search: optional('params.search', { type: 'string', maxLength: LIMITS.search }),
    exclude: optional('params.exclude', idList),
    include: optional('params.include', idList),
    order: optional('params.order', { type: 'string', maxLength: LIMITS.short }),
    orderby: optional('params.orderby', { type: 'string', maxLength: LIMITS.short }),
    hide_empty: optional('params.hide_empty', { type: 'boolean', default: '1' }),
    ...(taxonomy === 'category' ? { parent: optional('params.parent', { type: 'integer' }) } : {}),
    post: optional('params.post', { type: 'integer' }),
    event: optional('params.event', { type: 'integer' }),
    slug: optional('params.slug', { type: 'string', maxLength: LIMITS.slug }),
  };
}

/**
 * Create fields (BEHAVIOR §7.6), also the update fields through PartialType. `parent` is
 * documented for categories only.
 */
export function writeDocs(taxonomy: Taxonomy): Record<string, ApiPropertyOptions> {
  const k = kind(taxonomy);
  return {
    name: {
      required: true,
      type: 'string',
      description: termDoc(`${k}.name`),
      maxLength: LIMITS.termName,
    },
    description: {
      required: false,
      type: 'string',
      description: termDoc(`${k}.description`),
      maxLength: LIMITS.content,
    },
    slug: {
      required: false,
      type: 'string',
      description: termDoc(`${k}.slug`),
      maxLength: LIMITS.slug,
    },
    ...(taxonomy === 'category'
      ? { parent: { required: false, type: 'integer', description: termDoc(`${k}.parent`) } }
      : {}),
    // CONTRACT §5: create only (the update DTOs omit it and take `language` instead).
    translation_of: TRANSLATION_OF_DOC,
  };
}
