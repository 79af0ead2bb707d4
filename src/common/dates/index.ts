export { dateProblem, MAX_DATE_LENGTH, parseDateTime } from './strtotime.js';
export { isValidTimezone, timezoneAbbr, toLuxonZone } from './zones.js';
export {
  dateDetails,
  formatSql,
  localToUtc,
  toIso8601WithOffset,
  utcToLocal,
  ZERO_DATE,
} from './date-details.js';
export { eventWallClock } from './wall-clock.js';
