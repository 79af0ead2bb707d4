/** Compare functions for `sort`: without one, numbers sort as text (10 before 9). */
export const byNumber = (a: number, b: number): number => a - b;
/** Code-unit order, as `sort()` without a compare function does for strings. */
export const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
