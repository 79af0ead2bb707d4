export { dateProblem, MAX_DATE_LENGTH, parseDateTime } from './strtotime.js';
export { isValidTimezone, timezoneAbbr, toLuxonZone } from './zones.js';
export {
  dateDetails,
  formatSql,
  localToUtc,
  placeSpan,
  toIso8601WithOffset,
  utcToIso8601WithOffset,
  utcToLocal,
  ZERO_DATE,
} from './date-details.js';
export { eventWallClock, seriesWallClock } from './wall-clock.js';
