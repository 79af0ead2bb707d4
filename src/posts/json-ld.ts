import type { PostColumns } from './post-columns.js';
import { excerptWords, renderContent, renderExcerpt, renderTitle } from '../common/text/index.js';

/**
 * JSON-LD `description` (TEC JSON_LD Abstract): the excerpt, or the first 55 words of the
 * description, as paragraph HTML.
 */
export function jsonLdDescription(post: Pick<PostColumns, 'description' | 'excerpt'>): string {
  if (post.excerpt) return renderExcerpt(post.excerpt);
  if (!post.description) return '';
  return renderExcerpt(excerptWords(renderContent(post.description)));
}

/** The schema.org head every record's JSON-LD starts with (TEC JSON_LD Abstract::get_data). */
export function jsonLdHead(type: string, post: PostColumns, url: string): Record<string, unknown> {
  const image = post.imageUrl ? { image: post.imageUrl } : {};
  return {
    '@context': 'http://schema.org',
    '@type': type,
    name: renderTitle(post.title),
    description: jsonLdDescription(post),
    ...image,
    url,
  };
}
