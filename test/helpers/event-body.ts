import { DateTime } from 'luxon';

/** The day `offsetDays` from today (UTC) at `time`, as the API reads a date. */
export const day = (offsetDays: number, time = '10:00:00') =>
  `${DateTime.utc().plus({ days: offsetDays }).toFormat('yyyy-MM-dd')} ${time}`;

/** An event's body: `title`, five days from today, 10:00 to 12:00, and `extra`. */
export const event = (title: string, extra: Record<string, unknown> = {}) => ({
  title,
  start_date: day(5),
  end_date: day(5, '12:00:00'),
  ...extra,
});
