export {
  dateProblem,
  isValidDateTime,
  MAX_DATE_LENGTH,
  parseDateTime,
  type DateProblem,
} from './strtotime.js';
export { isValidTimezone, timezoneAbbr, toLuxonZone, wallClockToDateTime } from './zones.js';
export {
  dateDetails,
  formatSql,
  localToDateTime,
  localToUtc,
  toIso8601WithOffset,
  utcToLocal,
  ZERO_DATE,
  type DateDetails,
} from './date-details.js';
export { eventWallClock } from './wall-clock.js';
