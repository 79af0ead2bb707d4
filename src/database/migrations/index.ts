import { InitialSchema1763800000000 } from './1763800000000-initial-schema.js';
import { EventTermsState1763900000000 } from './1763900000000-event-terms-state.js';
import { Translations1764000000000 } from './1764000000000-translations.js';
import { WriteLocks1764100000000 } from './1764100000000-write-locks.js';
import { LinkedArchiveIndex1764200000000 } from './1764200000000-linked-archive-index.js';
import { Images1764300000000 } from './1764300000000-images.js';
import { CurrencySymbolWidth1764360000000 } from './1764360000000-currency-symbol-width.js';
import { GeoIndexes1764400000000 } from './1764400000000-geo-indexes.js';
import { ImportMap1764500000000 } from './1764500000000-import-map.js';
import { WriteGeneration1764700000000 } from './1764700000000-write-generation.js';
import { LinkedTitleIndex1764800000000 } from './1764800000000-linked-title-index.js';
import { TermPublishedCounts1764900000000 } from './1764900000000-term-published-counts.js';
import { Webhooks1765000000000 } from './1765000000000-webhooks.js';
import { WebhookSchedule1765100000000 } from './1765100000000-webhook-schedule.js';
import { Recurrence1765200000000 } from './1765200000000-recurrence.js';
import { SeriesLinks1765300000000 } from './1765300000000-series-links.js';
import { WriteChanges1765400000000 } from './1765400000000-write-changes.js';
import { SeriesHorizonLease1765500000000 } from './1765500000000-series-horizon-lease.js';
import { WebhookTraceContext1765600000000 } from './1765600000000-webhook-trace-context.js';
import { OccurrenceListing1765700000000 } from './1765700000000-occurrence-listing.js';
import { WebhookBodies1765800000000 } from './1765800000000-webhook-bodies.js';
import { ConsoleSessions1765950000000 } from './1765950000000-console-sessions.js';
import { Leases1766047000000 } from './1766047000000-leases.js';
import { ApplicationPasswords1766300000000 } from './1766300000000-application-passwords.js';

/** Every migration, in order. Listed explicitly: ESM builds cannot glob-load classes. */
export const migrations = [
  InitialSchema1763800000000,
  EventTermsState1763900000000,
  Translations1764000000000,
  WriteLocks1764100000000,
  LinkedArchiveIndex1764200000000,
  Images1764300000000,
  CurrencySymbolWidth1764360000000,
  GeoIndexes1764400000000,
  ImportMap1764500000000,
  WriteGeneration1764700000000,
  LinkedTitleIndex1764800000000,
  TermPublishedCounts1764900000000,
  Webhooks1765000000000,
  WebhookSchedule1765100000000,
  Recurrence1765200000000,
  SeriesLinks1765300000000,
  WriteChanges1765400000000,
  SeriesHorizonLease1765500000000,
  WebhookTraceContext1765600000000,
  OccurrenceListing1765700000000,
  WebhookBodies1765800000000,
  ConsoleSessions1765950000000,
  Leases1766047000000,
  ApplicationPasswords1766300000000,
];
