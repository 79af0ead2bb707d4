import { Column, Entity, Index, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import { PostColumns } from '../posts/post-columns.js';
import { DateTimeColumn, FlagColumn } from '../database/columns.js';
import { webUrlColumn } from '../common/http/web-url.js';

/**
 * The archive's order and what its filters test, first in both listing indexes (events and
 * occurrences), so that a list reads either in the same order and counts from the index alone.
 */
const LISTING_ORDER = [
  'language',
  'hideFromListings',
  'startDate',
  'date',
  'id',
  'status',
  'endDate',
  'dateUtc',
  'authorId',
];

/**
 * An event: a post with local and UTC start/end. Filters compare the local wall clocks
 * (BEHAVIOR §1.7), so both are stored and indexed; the time zone abbreviation is derived.
 */
@Entity('events')
@Index('IDX_events_listing', [
  ...LISTING_ORDER,
  // geoloc=1 and venue= test the venue of each listed event from the index.
  'venueId',
])
@Index('IDX_events_slug', ['language', 'slug'], { unique: true })
@Index('IDX_events_translation', ['translationGroup', 'language'], { unique: true })
@Index('IDX_events_status_date', ['status', 'date'])
@Index('IDX_events_author', ['authorId'])
export class EventEntity extends PostColumns {
  @DateTimeColumn('start_date')
  startDate!: string;

  @Index('IDX_events_end')
  @DateTimeColumn('end_date')
  endDate!: string;

  @DateTimeColumn('start_utc')
  startUtc!: string;

  @DateTimeColumn('end_utc')
  endUtc!: string;

  @Column({ type: 'varchar', length: 64 })
  timezone!: string;

  @FlagColumn('all_day')
  allDay!: boolean;

  /** Raw cost entries as a JSON array of strings (BEHAVIOR §4.3). */
  @Column({ type: 'text' })
  cost!: string;

  /** Up to a whole cost value long (CONTRACT §4). */
  @Column({ name: 'currency_symbol', type: 'varchar', length: 255, default: '' })
  currencySymbol!: string;

  @Column({ name: 'currency_position', type: 'varchar', length: 10, default: '' })
  currencyPosition!: string;

  /** NULL: never stored (reads back as the event url); '' stored empty. */
  @Column({ type: 'varchar', length: 2048, nullable: true, transformer: webUrlColumn('') })
  website!: string | null;

  @FlagColumn('show_map')
  showMap!: boolean;

  @FlagColumn('show_map_link')
  showMapLink!: boolean;

  @FlagColumn('hide_from_listings')
  hideFromListings!: boolean;

  @FlagColumn('sticky')
  sticky!: boolean;

  @FlagColumn('featured')
  featured!: boolean;

  @Index('IDX_events_venue')
  @Column({ name: 'venue_id', type: 'integer', nullable: true })
  venueId!: number | null;

  @Index('IDX_events_parent')
  @Column({ name: 'post_parent', type: 'integer', default: 0 })
  postParent!: number;

  /** The series as stored (JSON `{rules, exdates, rdates}`); null for a single event. */
  @Column({ type: 'text', nullable: true })
  recurrence!: string | null;

  /** How far the occurrences are materialized (local wall clock); null for a single event. */
  @Index('IDX_events_recurring')
  @Column({ name: 'occurrences_until', type: 'varchar', length: 19, nullable: true })
  occurrencesUntil!: string | null;

  /** The series this event was split off (`_tec_update_type` single or upcoming); else null. */
  @Index('IDX_events_series')
  @Column({ name: 'series_id', type: 'integer', nullable: true })
  seriesId!: number | null;

  /** The local start of the series' occurrence this event replaces (RECURRENCE-ID); else null. */
  @Column({ name: 'series_start', type: 'varchar', length: 19, nullable: true })
  seriesStart!: string | null;
}

/**
 * One occurrence of a recurring event (CONTRACT §9): its id is the occurrence id of the provisional
 * ids (OCCURRENCE_ID_BASE + id), kept for the same event and start across edits.
 */
@Entity('event_occurrences')
@Index('IDX_occurrences_event', ['eventId', 'startDate'], { unique: true })
// The order of IDX_events_listing, then every column a list item reads of an occurrence.
@Index('IDX_occurrences_listed', [...LISTING_ORDER, 'eventId', 'startUtc', 'endUtc', 'dayIndex'])
export class OccurrenceEntity {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id!: number;

  @Column({ name: 'event_id', type: 'integer' })
  eventId!: number;

  @DateTimeColumn('start_date')
  startDate!: string;

  @DateTimeColumn('end_date')
  endDate!: string;

  @DateTimeColumn('start_utc')
  startUtc!: string;

  @DateTimeColumn('end_utc')
  endUtc!: string;

  @Column({ name: 'day_index', type: 'smallint', default: 1 })
  dayIndex!: number;

  // Copies of the event's columns that lists filter and order on, under the same names, kept in
  // step by every event write (EventsRepository.save, trash): a list needs no join to its events.
  @Column({ type: 'varchar', length: 5, default: '' })
  language!: string;

  @FlagColumn('hide_from_listings')
  hideFromListings!: boolean;

  @Column({ type: 'varchar', length: 20, default: 'draft' })
  status!: string;

  @DateTimeColumn('date', { default: '' })
  date!: string;

  @DateTimeColumn('date_utc', { nullable: true })
  dateUtc!: string | null;

  @Column({ name: 'author_id', type: 'integer', default: 0 })
  authorId!: number;
}

/** The columns of an event that its occurrences copy (OccurrenceEntity). */
export type OccurrenceListing = Pick<
  OccurrenceEntity,
  'language' | 'hideFromListings' | 'status' | 'date' | 'dateUtc' | 'authorId'
>;

export const listingOf = (event: OccurrenceListing): OccurrenceListing => ({
  language: event.language,
  hideFromListings: event.hideFromListings,
  status: event.status,
  date: event.date,
  dateUtc: event.dateUtc,
  authorId: event.authorId,
});

/** An event's organizers, in linking order. */
@Entity('event_organizers')
export class EventOrganizerEntity {
  @PrimaryColumn({ name: 'event_id', type: 'integer' })
  eventId!: number;

  @Index('IDX_event_organizers_organizer')
  @PrimaryColumn({ name: 'organizer_id', type: 'integer' })
  organizerId!: number;

  @Column({ type: 'integer', default: 0 })
  position!: number;
}

/** Which event carries which term (WordPress `wp_term_relationships`). */
@Entity('event_terms')
@Index('IDX_event_terms_count', ['termId', 'eventLanguage', 'eventStatus', 'eventDateUtc'])
export class EventTermEntity {
  @PrimaryColumn({ name: 'event_id', type: 'integer' })
  eventId!: number;

  @Index('IDX_event_terms_term')
  @PrimaryColumn({ name: 'term_id', type: 'integer' })
  termId!: number;

  /** Copy of the event's status, kept in step by every event write (EventsRepository.syncTermLinks): counts need no join. */
  @Column({ name: 'event_status', type: 'varchar', length: 20, default: 'draft' })
  eventStatus!: string;

  /** Copy of the event's `date_utc` (a `future` event counts once it has passed). */
  @Column({ name: 'event_date_utc', type: 'varchar', length: 19, nullable: true })
  eventDateUtc!: string | null;

  /** Copy of the event's language: a term counts only the events of its own language. */
  @Column({ name: 'event_language', type: 'varchar', length: 5, default: '' })
  eventLanguage!: string;
}
