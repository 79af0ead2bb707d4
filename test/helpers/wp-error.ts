/**
 * An error in WordPress's shape that carries nothing beyond its status (CONTRACT §4): the whole
 * body WpErrorFilter writes, or one entry of a body's `data.details`. For `toEqual`, so that no
 * other field may come along.
 */
export const wpError = (status: number, code: string, message: string) => ({
  code,
  message,
  data: { status },
});
