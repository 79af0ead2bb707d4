/** `YYYY-MM-DD HH:MM:SS` (the API's wall-clock format) of a Date's local time. */
export function wallClock(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ` +
    `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
  );
}

/** A new event's dates: from the next full hour, for an hour (so a title alone can be saved). */
export function nextFullHour(now = new Date()): { start_date: string; end_date: string } {
  const start = new Date(now);
  start.setMinutes(0, 0, 0);
  start.setHours(start.getHours() + 1);
  const end = new Date(start);
  end.setHours(end.getHours() + 1);
  return { start_date: wallClock(start), end_date: wallClock(end) };
}

/** The API's `YYYY-MM-DD HH:MM:SS` ↔ the `YYYY-MM-DDTHH:MM` of a datetime-local input. */
export const toInput = (value: unknown) =>
  typeof value === 'string' && value.length >= 16 ? value.slice(0, 16).replace(' ', 'T') : '';
export const fromInput = (value: unknown) =>
  typeof value === 'string' && value ? `${value.replace('T', ' ')}:00`.slice(0, 19) : '';
