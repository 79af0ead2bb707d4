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

/**
 * The events no anonymous reader may see, one hour from 10:00 on `date` (yyyy-MM-dd): a draft and
 * a private one, keyed by their status; `extra` adds fields to both (a slug, a description).
 */
export const nonPublicEvents = (
  date: string,
  extra: (status: 'draft' | 'private') => Record<string, unknown> = () => ({}),
) =>
  Object.fromEntries(
    (['draft', 'private'] as const).map((status) => [
      status,
      {
        title: `${status === 'draft' ? 'Draft' : 'Private'} secret`,
        status,
        start_date: `${date} 10:00:00`,
        end_date: `${date} 11:00:00`,
        ...extra(status),
      },
    ]),
  );
