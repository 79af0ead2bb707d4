/**
 * The image object of BEHAVIOR §4.6 for a URL-only image (CONTRACT §6: there is no media library,
 * the URL is stored on the record as given). With no attachment post behind it, `id` is the id of
 * the record that carries the image, so clients that key images by id still get a stable value.
 */
export interface ImageObject {
  url: string;
  id: number;
  extension: string;
}

export function imageObject(recordId: number, url: string | null): ImageObject | null {
  if (!url) return null;
  let path = url;
  try {
    path = new URL(url).pathname;
  } catch {
    // Stored URLs were validated on write; fall back to the raw text.
  }
  const file = path.split('/').pop() ?? '';
  const dot = file.lastIndexOf('.');
  return { url, id: recordId, extension: dot > 0 ? file.slice(dot + 1) : '' };
}
