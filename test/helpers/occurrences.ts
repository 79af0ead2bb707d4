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
