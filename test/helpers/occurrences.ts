import type { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** A row of `event_occurrences`; a read names the columns it wants. */
export interface OccurrenceRow {
  id: number;
  start_date: string;
  end_date: string;
  start_utc: string;
  end_utc: string;
  day_index: number;
}

/** Every column of the row above. */
export const OCCURRENCE_COLUMNS: ReadonlyArray<keyof OccurrenceRow> = [
  'id',
  'start_date',
  'end_date',
  'start_utc',
  'end_utc',
  'day_index',
];

/** The occurrences of `eventId` as stored, by start: the `columns` named (SQL list). */
export async function occurrenceRows<K extends keyof OccurrenceRow>(
  app: INestApplication,
  eventId: number,
  columns: readonly K[],
): Promise<Array<Pick<OccurrenceRow, K>>> {
  return (await app
    .get(DataSource)
    .query(
      `SELECT ${columns.join(', ')} FROM event_occurrences WHERE event_id = ? ORDER BY start_date`,
      [eventId],
    )) as Array<Pick<OccurrenceRow, K>>;
}

/** The answer to a series that would store more than 1,000 occurrences (English). */
export const TOO_MANY_OCCURRENCES = {
  code: 'rest_invalid_param',
  data: {
    status: 400,
    params: {
      recurrence: 'recurrence makes more than 1000 occurrences; end it sooner (COUNT or UNTIL).',
    },
  },
};

/**
 * The UTC start and end of every occurrence of a 30-minute series at 02:45 New York time on
 * Tuesdays, Saturdays and Sundays (FREQ=WEEKLY;UNTIL=20310329T064500Z;BYDAY=TU,SA,SU) from
 * 9 March 2031: only the first, in the spring-forward gap, moves (03:45 EDT); every later one
 * stays at 02:45 EDT; UNTIL is 06:45Z, so the last starts exactly then.
 */
export const GAP_SERIES_UTC: ReadonlyArray<[string, string]> = [
  ['2031-03-09 07:45:00', '2031-03-09 08:15:00'],
  ...['11', '15', '16', '18', '22', '23', '25', '29'].map((d): [string, string] => [
    `2031-03-${d} 06:45:00`,
    `2031-03-${d} 07:15:00`,
  ]),
];
