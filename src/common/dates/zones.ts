import { DateTime, FixedOffsetZone, IANAZone, type Zone } from 'luxon';
import { LRUCache } from 'lru-cache';
import { BoundedMemo } from '../bounded-memo.js';
import { lruBounds } from '../lru-bounds.js';

/**
 * Time-zone strings accepted by the plugin (`Tribe__Timezones::is_valid_timezone`): any IANA name,
 * `UTC`, and the WordPress "manual offset" form `UTC+2`, `UTC-5`, `UTC+5.5`, `UTC+5.75`.
 */
const UTC_OFFSET = /^UTC([+-])(\d{1,2})(?:\.(\d+))?$/;

/** Largest offsets in use anywhere (Pacific/Kiritimati is +14, Etc/GMT+12 is -12). */
const MAX_OFFSET_MINUTES = 14 * 60;

/** Minutes east of UTC for a `UTC±N[.F]` string, or null when it is not one (or not whole minutes). */
function utcOffsetMinutes(tz: string): number | null {
  const match = UTC_OFFSET.exec(tz);
  if (!match) return null;
  const [, sign, hours, fraction = ''] = match;
  const fractionMinutes = Number(`0.${fraction || '0'}`) * 60;
  if (!Number.isInteger(fractionMinutes)) return null;
  const minutes = Number(hours) * 60 + fractionMinutes;
  if (minutes > MAX_OFFSET_MINUTES) return null;
  return sign === '-' ? -minutes : minutes;
}

/** Whether `tz` is a time zone the API accepts: IANA name, `UTC`, or `UTC±N[.F]`. */
export function isValidTimezone(tz: unknown): tz is string {
  if (typeof tz !== 'string' || tz === '') return false;
  return tz === 'UTC' || utcOffsetMinutes(tz) !== null || IANAZone.isValidZone(tz);
}

/**
 * The luxon zone for an accepted time-zone string: `UTC±N[.F]` becomes a fixed-offset zone
 * (`UTC+5.5` → UTC+05:30), anything else an IANA zone. Null when the string is not accepted.
 */
export function toLuxonZone(tz: string): Zone | null {
  if (tz === 'UTC') return FixedOffsetZone.utcInstance;
  const offset = utcOffsetMinutes(tz);
  if (offset !== null) return FixedOffsetZone.instance(offset);
  let zone = ianaZones.get(tz);
  if (zone === undefined) {
    zone = IANAZone.isValidZone(tz) ? new KeptOffsetsZone(tz) : null;
    // Names come from validated records and parameters; bounded all the same.
    if (ianaZones.size < 2_000) ianaZones.set(tz, zone);
  }
  return zone;
}

/**
 * An IANA zone that keeps its offset at each instant asked: luxon's works it out with
 * Intl.DateTimeFormat#formatToParts (about 5 µs) every time, and placing one event's dates asks
 * a dozen times, mostly for the same few instants (wallClockToDateTime's probes, the DateTime
 * made, its ISO form). An offset at an instant never changes while the process runs. The zones
 * keep MAX_KEPT_OFFSETS offsets between them, then start again (a series' occurrences ask for
 * thousands of instants; a request may name any of hundreds of zones).
 */
class KeptOffsetsZone extends IANAZone {
  override offset(ts: number): number {
    return keptOffsets.get(`${ts} ${this.name}`, () => super.offset(ts));
  }
}

const MAX_KEPT_OFFSETS = 8_192;
/** The offsets the zones keep, by instant and zone name. */
const keptOffsets = new BoundedMemo<number>(MAX_KEPT_OFFSETS);

/**
 * IANA names already checked: luxon checks one by building an Intl.DateTimeFormat (about a
 * millisecond), and each occurrence of a series is placed in its zone twice or three times.
 */
const ianaZones = new Map<string, Zone | null>();

/**
 * The instant a local wall clock denotes in `zone`, as RFC 5545 §3.3.5 reads a local time
 * (CONTRACT §9 "Time"): a time in a DST gap takes the offset before the gap, so it moves forward
 * by the gap (02:30 → 03:30), and a time that occurs twice is its first occurrence (the offset
 * before the change), on both sides of Greenwich. (PHP's timelib takes the second occurrence in
 * zones east of it; every calendar application reading a feed's TZID takes the first, so the
 * service does too, for plain events and occurrences alike.) luxon's own resolution depends on
 * today's date, hence this. `wallMs` is the wall clock written as a UTC epoch (`Date.UTC(...)`).
 */
export function wallClockToDateTime(wallMs: number, zone: Zone): DateTime | null {
  const minute = 60_000;
  // The offsets in force a day either side: a change of offset near the wall clock is between
  // them (no zone changes twice within two days).
  const before = zone.offset(wallMs - 86_400_000);
  const after = zone.offset(wallMs + 86_400_000);
  const fits = (offset: number) => zone.offset(wallMs - offset * minute) === offset;
  // The earlier instant when both fit (a repeated time), the offset before the change when
  // neither does (a gap); with one offset all year both are the same.
  const [first, second] = before >= after ? [before, after] : [after, before];
  const offset = fits(first) ? first : fits(second) ? second : before;
  const result = DateTime.fromMillis(wallMs - offset * minute, { zone });
  return result.isValid ? result : null;
}

/**
 * Lettered abbreviations PHP prints (`T` format, from the tz database) for zones whose ICU en-US
 * short name is only `GMT+N`: [standard, daylight-saving, zones]. American zones are left to ICU,
 * whose en-US names (EST/EDT, CST, AKST, HST, AST, …) are the tz database ones.
 */
const LETTERED_ABBREVIATIONS: ReadonlyArray<readonly [string, string, readonly string[]]> = [
  [
    'UTC',
    'UTC',
    ['UTC', 'Etc/UTC', 'Etc/UCT', 'UCT', 'Etc/Universal', 'Universal', 'Etc/Zulu', 'Zulu'],
  ],
  [
    'GMT',
    'GMT',
    [
      'GMT',
      'GMT0',
      'GMT+0',
      'GMT-0',
      'Greenwich',
      'Etc/GMT',
      'Etc/GMT0',
      'Etc/GMT+0',
      'Etc/GMT-0',
      'Etc/Greenwich',
      'Iceland',
      'Atlantic/Reykjavik',
      'Atlantic/St_Helena',
      'America/Danmarkshavn',
      'Africa/Abidjan',
      'Africa/Accra',
      'Africa/Bamako',
      'Africa/Banjul',
      'Africa/Bissau',
      'Africa/Conakry',
      'Africa/Dakar',
      'Africa/Freetown',
      'Africa/Lome',
      'Africa/Monrovia',
      'Africa/Nouakchott',
      'Africa/Ouagadougou',
      'Africa/Sao_Tome',
      'Africa/Timbuktu',
    ],
  ],
  [
    'GMT',
    'BST',
    [
      'Europe/London',
      'Europe/Belfast',
      'Europe/Guernsey',
      'Europe/Isle_of_Man',
      'Europe/Jersey',
      'GB',
    ],
  ],
  ['GMT', 'IST', ['Europe/Dublin', 'Eire']],
  [
    'WET',
    'WEST',
    ['WET', 'Europe/Lisbon', 'Portugal', 'Atlantic/Canary', 'Atlantic/Madeira', 'Atlantic/Faroe'],
  ],
  [
    'CET',
    'CEST',
    [
      'CET',
      'Poland',
      'Africa/Algiers',
      'Africa/Ceuta',
      'Africa/Tunis',
      'Arctic/Longyearbyen',
      'Europe/Amsterdam',
      'Europe/Andorra',
      'Europe/Belgrade',
      'Europe/Berlin',
      'Europe/Bratislava',
      'Europe/Brussels',
      'Europe/Budapest',
      'Europe/Busingen',
      'Europe/Copenhagen',
      'Europe/Gibraltar',
      'Europe/Ljubljana',
      'Europe/Luxembourg',
      'Europe/Madrid',
      'Europe/Malta',
      'Europe/Monaco',
      'Europe/Oslo',
      'Europe/Paris',
      'Europe/Podgorica',
      'Europe/Prague',
      'Europe/Rome',
      'Europe/San_Marino',
      'Europe/Sarajevo',
      'Europe/Skopje',
      'Europe/Stockholm',
      'Europe/Tirane',
      'Europe/Vaduz',
      'Europe/Vatican',
      'Europe/Vienna',
      'Europe/Warsaw',
      'Europe/Zagreb',
      'Europe/Zurich',
    ],
  ],
  [
    'EET',
    'EEST',
    [
      'EET',
      'Egypt',
      'Libya',
      'Africa/Cairo',
      'Africa/Tripoli',
      'Asia/Beirut',
      'Asia/Famagusta',
      'Asia/Gaza',
      'Asia/Hebron',
      'Asia/Nicosia',
      'Europe/Athens',
      'Europe/Bucharest',
      'Europe/Chisinau',
      'Europe/Helsinki',
      'Europe/Kaliningrad',
      'Europe/Kiev',
      'Europe/Kyiv',
      'Europe/Mariehamn',
      'Europe/Nicosia',
      'Europe/Riga',
      'Europe/Sofia',
      'Europe/Tallinn',
      'Europe/Uzhgorod',
      'Europe/Vilnius',
      'Europe/Zaporozhye',
    ],
  ],
  [
    'MSK',
    'MSD',
    ['W-SU', 'Europe/Moscow', 'Europe/Simferopol', 'Europe/Kirov', 'Europe/Volgograd'],
  ],
  ['IST', 'IDT', ['Israel', 'Asia/Jerusalem', 'Asia/Tel_Aviv']],
  ['IST', 'IST', ['Asia/Kolkata', 'Asia/Calcutta']],
  ['PKT', 'PKST', ['Asia/Karachi']],
  ['WIB', 'WIB', ['Asia/Jakarta', 'Asia/Pontianak']],
  ['WITA', 'WITA', ['Asia/Makassar', 'Asia/Ujung_Pandang']],
  ['WIT', 'WIT', ['Asia/Jayapura']],
  ['PST', 'PDT', ['Asia/Manila']],
  ['HKT', 'HKST', ['Hongkong', 'Asia/Hong_Kong']],
  [
    'CST',
    'CDT',
    [
      'PRC',
      'ROC',
      'Asia/Shanghai',
      'Asia/Chongqing',
      'Asia/Chungking',
      'Asia/Harbin',
      'Asia/Taipei',
    ],
  ],
  ['CST', 'CST', ['Asia/Macau', 'Asia/Macao']],
  ['KST', 'KDT', ['ROK', 'Asia/Seoul', 'Asia/Pyongyang']],
  ['JST', 'JDT', ['Japan', 'Asia/Tokyo']],
  [
    'AEST',
    'AEDT',
    [
      'Australia/ACT',
      'Australia/Brisbane',
      'Australia/Canberra',
      'Australia/Currie',
      'Australia/Hobart',
      'Australia/Lindeman',
      'Australia/Melbourne',
      'Australia/NSW',
      'Australia/Queensland',
      'Australia/Sydney',
      'Australia/Tasmania',
      'Australia/Victoria',
    ],
  ],
  [
    'ACST',
    'ACDT',
    [
      'Australia/Adelaide',
      'Australia/Broken_Hill',
      'Australia/Darwin',
      'Australia/North',
      'Australia/South',
      'Australia/Yancowinna',
    ],
  ],
  ['AWST', 'AWDT', ['Australia/Perth', 'Australia/West']],
  ['NZST', 'NZDT', ['NZ', 'Pacific/Auckland', 'Antarctica/McMurdo', 'Antarctica/South_Pole']],
  ['ChST', 'ChST', ['Pacific/Guam', 'Pacific/Saipan']],
  ['SST', 'SST', ['Pacific/Pago_Pago', 'Pacific/Midway', 'Pacific/Samoa', 'US/Samoa']],
  ['NST', 'NDT', ['America/St_Johns', 'Canada/Newfoundland']],
  ['CST', 'CDT', ['Cuba', 'America/Havana']],
  ['SAST', 'SAST', ['Africa/Johannesburg', 'Africa/Maseru', 'Africa/Mbabane']],
  [
    'CAT',
    'CAT',
    [
      'Africa/Blantyre',
      'Africa/Bujumbura',
      'Africa/Gaborone',
      'Africa/Harare',
      'Africa/Juba',
      'Africa/Khartoum',
      'Africa/Kigali',
      'Africa/Lubumbashi',
      'Africa/Lusaka',
      'Africa/Maputo',
      'Africa/Windhoek',
    ],
  ],
  [
    'EAT',
    'EAT',
    [
      'Africa/Addis_Ababa',
      'Africa/Asmara',
      'Africa/Asmera',
      'Africa/Dar_es_Salaam',
      'Africa/Djibouti',
      'Africa/Kampala',
      'Africa/Mogadishu',
      'Africa/Nairobi',
      'Indian/Antananarivo',
      'Indian/Comoro',
      'Indian/Mayotte',
    ],
  ],
  [
    'WAT',
    'WAT',
    [
      'Africa/Bangui',
      'Africa/Brazzaville',
      'Africa/Douala',
      'Africa/Kinshasa',
      'Africa/Lagos',
      'Africa/Libreville',
      'Africa/Luanda',
      'Africa/Malabo',
      'Africa/Ndjamena',
      'Africa/Niamey',
      'Africa/Porto-Novo',
    ],
  ],
];

const LETTERED_BY_ZONE = new Map<string, readonly [string, string]>(
  LETTERED_ABBREVIATIONS.flatMap(([standard, daylight, zones]) =>
    zones.map((zone) => [zone.toLowerCase(), [standard, daylight] as const] as const),
  ),
);

/** One formatter per zone; bounded, though only valid IANA names (a few hundred) reach it. */
const enUsFormatters = new LRUCache<string, Intl.DateTimeFormat>(
  lruBounds<string, Intl.DateTimeFormat>(1_000),
);

/**
 * Canonical names by the name asked for: ICU answers through a formatter made for the zone, about
 * 0.2 ms each, and every event payload of a zone without a lettered abbreviation of its own
 * (`Europe/Budapest`) asked again.
 */
const canonicalNames = new BoundedMemo<string>(1_000);

/** ICU's canonical spelling of an IANA name, lower-cased (`asia/kolkata` → `asia/calcutta`). */
function canonicalName(tz: string): string {
  return canonicalNames.get(tz, () =>
    new Intl.DateTimeFormat('en-US', { timeZone: tz }).resolvedOptions().timeZone.toLowerCase(),
  );
}

/** ICU's en-US short zone name (`EST`, `AKDT`, or `GMT+3`-style when it has no letters). */
function icuShortName(zone: string, epochMillis: number): string {
  let formatter = enUsFormatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'short' });
    enUsFormatters.set(zone, formatter);
  }
  const part = formatter.formatToParts(epochMillis).find((p) => p.type === 'timeZoneName');
  return part?.value ?? '';
}

/** PHP's numeric abbreviation for an offset in minutes: `+04`, `-03`, `+0545`, `-0930`. */
function numericAbbreviation(offsetMinutes: number): string {
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const hours = String(Math.floor(abs / 60)).padStart(2, '0');
  const minutes = abs % 60;
  return minutes === 0 ? `${sign}${hours}` : `${sign}${hours}${String(minutes).padStart(2, '0')}`;
}

/**
 * The abbreviation in force in `tz` at a local wall-clock time (`YYYY-MM-DD HH:MM:SS`, or a
 * luxon DateTime for an instant), as the plugin's `timezone_abbr`: `CET`/`CEST`, `EST`/`EDT`,
 * `UTC`; the zone string itself for `UTC±N` zones; PHP's numeric form (`-03`, `+04`) for IANA zones
 * without a lettered abbreviation. Returns '' for an unknown zone or an unreadable time.
 */
export function timezoneAbbr(tz: string, localWallClock: string | DateTime): string {
  if (tz === 'UTC') return 'UTC';
  // The plugin prints manual offsets verbatim: PHP has no abbreviation for them.
  if (utcOffsetMinutes(tz) !== null) return tz;
  const zone = toLuxonZone(tz);
  if (!zone) return '';

  let at: DateTime | null;
  if (typeof localWallClock === 'string') {
    const wall = DateTime.fromSQL(localWallClock, { zone: 'UTC' });
    at = wall.isValid ? wallClockToDateTime(wall.toMillis(), zone) : null;
  } else {
    at = localWallClock.isValid ? localWallClock.setZone(zone) : null;
  }
  if (!at) return '';

  const lettered =
    LETTERED_BY_ZONE.get(tz.toLowerCase()) ?? LETTERED_BY_ZONE.get(canonicalName(tz));
  if (lettered) return at.isInDST ? lettered[1] : lettered[0];

  const icu = icuShortName(zone.name, at.toMillis());
  if (/^[A-Z]{2,5}$/.test(icu) && icu !== 'GMT' && icu !== 'UTC') return icu;
  return numericAbbreviation(at.offset);
}
