import type { ImageObject } from '../common/payload/tec-payload.js';

/** The image object of BEHAVIOR §4.6 for a URL-only image (see ImageObject). */
export function imageObject(imageId: number | null, url: string | null): ImageObject | null {
  if (!url || imageId === null) return null;
  let path = url;
  try {
    path = new URL(url).pathname;
  } catch {
    // Stored URLs were validated on write; fall back to the raw text.
  }
  const file = path.split('/').pop() ?? '';
  const dot = file.lastIndexOf('.');
  return { url, id: imageId, extension: dot > 0 ? file.slice(dot + 1) : '' };
}
