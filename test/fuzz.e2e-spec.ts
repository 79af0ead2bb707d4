import * as fc from 'fast-check';
import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import {
  Agent,
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type OutgoingHttpHeaders,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import { ROUTE_TABLE } from '../src/docs/route-table.js';
import { threadCpuMs } from '../src/common/cpu.js';
import { basic, createRoleUsers, logIn, type RoleUsers, type Session } from './helpers/auth.js';
import { closeApp, createTestApp } from './helpers/create-test-app.js';

/**
 * "Bad input never breaks anything" (CONTRACT §4): generated malformed requests against every route
 * and method of the namespace (src/docs/route-table.ts, with the arguments the namespace index
 * lists for each endpoint), plus /health, the Swagger UI, unknown paths and wrong methods, under
 * no prefix and the /en /hu /ro prefixes, anonymously and as an administrator and a contributor.
 *
 * Properties, checked on every answer:
 *  - the status is below 500;
 *  - a status >= 400 comes with a JSON body in the shape of CONTRACT §4: `code` a string,
 *    `message` a non-empty string, `data.status` equal to the HTTP status;
 *  - that message is a translation from i18n/<lang>/errors.json of the request's language, and
 *    under /hu and /ro it is not the English text of the same code;
 *  - a read or a failed write (status >= 400) leaves the content of every table unchanged (a hash
 *    of each table's rows is compared before and after; successful writes re-take the snapshot);
 *  - no request takes more than MAX_SERVER_MS (200 ms) of server time (outside security probe).
 *    Server time is the CPU time this thread spends from sending the request to reading the
 *    answer (`threadCpuMs()`): requests go one at a time and the app runs in this thread, so that
 *    is the app's work (SQLite included, MariaDB's own work not; neither the collector's helper
 *    threads nor the webhook dispatcher's thread, which the process's figure would count; a
 *    request is not sent twice, since a write would not answer the same), and unlike wall-clock
 *    time it does not grow when other processes load the machine. The request log's `ms` (wall
 *    clock, found through `X-Request-Id`) is printed beside it and for the slowest requests.
 *
 * Besides malformed input, requests carry long, repetitive text (10-80 KB of spaces, blank lines,
 * `<div`, `--`, quotes, `&#`, `next week`, ...) in every date and text field, lists of thousands
 * of IDs (tens of thousands in bodies; as many as a URL holds in query strings), thousands of
 * inline organizers, 70 KB titles, 3 KB websites and 312-character passwords.
 *
 * Violations are collected (not thrown one by one) so that one run reports all of them; the run
 * ends with a summary (requests per route, statuses, violations) and fails if any was found.
 *
 * FUZZ_RUNS sets the number of generated requests (default 300: with the sweep, the file takes
 * one to two minutes in `npm test`); FUZZ_SEED replays a run; FUZZ_VERBOSE=1 lists every failing
 * request, not three of each kind. `npm run fuzz -- --runs 10000` runs a long one.
 */

const RUNS = Math.max(1, Number(process.env.FUZZ_RUNS) || 300);
const SEED = Number(process.env.FUZZ_SEED) || Date.now() % 2 ** 31;
const NS = '/cal/events/v1';
/** The login throttle blocks a client after 10 failed logins per minute: stay well below. */
const BAD_AUTH_BUDGET = 5;
/** The most server time one request may take, in ms of CPU (see the properties above). */
const MAX_SERVER_MS = 200;
/** Node refuses a request line over 16 KB (431): longer query strings never reach the app. */
const MAX_URL_QUERY = 15_000;
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
type Method = (typeof METHODS)[number];
type Lang = 'en' | 'hu' | 'ro';

// ---------------------------------------------------------------------------------------------
// What a generated request is. Values may hold references to records that exist when the
// request is sent (`{ __ref }`), resolved at that moment from a pool that grows with every
// successful create, so that generated IDs and slugs often hit real records.

interface Ref {
  __ref: 'id' | 'slug';
  /** Prefer records of this collection (`events`, `venues`, ...), when there are any. */
  kind?: string;
  n: number;
}
type Gen = unknown;

interface ArgSpec {
  type?: string;
  required?: boolean;
  enum?: string[];
}

interface Target {
  /** Key of the summary: `METHOD pattern`. */
  key: string;
  method: Method;
  /** Path under the site root, with `{id}` / `{slug}` / `{junk}` placeholders. */
  path: string;
  args: Record<string, ArgSpec>;
}

type Auth = 'anonymous' | 'administrator' | 'contributor' | 'bad';

type PathPart =
  { kind: 'ref'; ref: Ref } | { kind: 'text'; text: string; encoding: 'encoded' | 'raw' };

type QueryPair = { key: string; value: Gen; encoding: 'encoded' | 'raw' };

type Body =
  | { kind: 'none' }
  | { kind: 'json'; value: Gen; contentType: string }
  | { kind: 'form'; pairs: QueryPair[]; contentType: string }
  | { kind: 'text'; text: string; contentType: string }
  | { kind: 'bytes'; prefix: Gen; bytes: Uint8Array; contentType: string }
  | { kind: 'deep'; depth: number; shape: 'array' | 'object'; field: string }
  | { kind: 'encoded'; encoding: string; bytes: Uint8Array }
  | { kind: 'oversize'; contentType: string };

/**
 * How the request travels (src/common/http/wp-conventions.ts): with its own method, or as a POST
 * naming it with `X-HTTP-Method-Override` or `?_method=` (a GET keeps its method and carries the
 * override, never honoured), the scalar fields of a JSON body moved into the query string under
 * what stays in the body, or a POST naming a method no route serves.
 */
type Via = 'direct' | 'header' | 'query' | 'query-body' | 'junk-method';
const JUNK_METHODS = ['TRACE', '', 'OPTIONS', 'PUT, DELETE', 'x'.repeat(300), 'dElEtE'];

interface GenRequest {
  target: Target;
  via?: Via;
  junkMethod?: string;
  prefix: '' | '/en' | '/hu' | '/ro';
  auth: Auth;
  badAuth: string;
  id: PathPart;
  slug: PathPart;
  junk: PathPart;
  query: QueryPair[];
  body: Body;
}

// ---------------------------------------------------------------------------------------------
// Arbitraries.

const ref = (type: Ref['__ref'], kind?: string): fc.Arbitrary<Ref> =>
  fc.nat({ max: 10_000 }).map((n) => ({ __ref: type, kind, n }));

/** The collection a path or a linking field names: `/events/{id}` → `events`, `venue` → `venues`. */
const LINKS: Record<string, string> = {
  venue: 'venues',
  organizer: 'organizers',
  categories: 'categories',
  tags: 'tags',
  parent: 'categories',
  event: 'events',
  post: 'events',
  translation_of: '',
};
const collectionOf = (path: string) => /^\/cal\/events\/v1\/([a-z]+)/.exec(path)?.[1];

const ATTACK_STRINGS = [
  "' OR '1'='1",
  "1' OR '1'='1' --",
  '1; DROP TABLE events; --',
  "'; DELETE FROM users; --",
  '" OR 1=1 --',
  "1' UNION SELECT password_hash, login FROM users --",
  '1 AND SLEEP(5)',
  "%' AND 1=0 UNION SELECT NULL --",
  '\\',
  "\\'",
  '`',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '"><svg onload=alert(1)>',
  '<!--',
  ']]>',
  '{{7*7}}',
  '${7*7}',
  '../../../../etc/passwd',
  '%s%n%x',
  '%00',
  '%',
  '%zz',
  '%FF%FE',
  '%C0%80',
  '%ED%A0%80',
  '\u00ff\u00fe\u0080',
  '\u0000',
  'a\u0000b\u0001\u001f\u007f',
  '\r\nSet-Cookie: x=1',
  '\u202e\u202dtxt.exe',
  '\ud800',
  '\udfff',
  '\ufeff',
  '\uffff',
  '😀👍🏽🇭🇺',
  'Ő ű ă ș ț',
  '__proto__',
  'constructor',
  'prototype',
  'null',
  'undefined',
  'true',
  'NaN',
  'Infinity',
  '-Infinity',
  '[]',
  '{}',
  '',
  ' ',
  '\t\n',
];

const DATE_STRINGS = [
  '0000-00-00 00:00:00',
  '0000-00-00',
  '2024-02-30 10:00:00',
  '2023-02-29',
  '2024-13-01 10:00:00',
  '2024-00-10',
  '2024-01-01 25:61:61',
  '2024-01-01T25:00:00Z',
  '2024-06-01T10:00:00+99:00',
  '9999-12-31 23:59:59',
  '10000-01-01 00:00:00',
  '275760-09-13',
  '-0001-01-01',
  '1000-01-01',
  '1969-12-31 23:59:59',
  '1970-01-01 00:00:00',
  '2038-01-19 03:14:08',
  '@-99999999999999',
  '@99999999999999999',
  '@1e30',
  'tomorrow',
  'yesterday noon',
  'next month',
  'last day of february',
  'first monday of next month',
  'now +1000000 years',
  '+1 week 2 days 4 hours',
  '2024-06-01 10:00:00 Mars/Olympus',
  '2024-06-01 10:00 PM',
  '31/12/2024',
  '12/31/2024',
  'not a date',
  '1717236000',
  '2024-06-01',
  '2030-06-01 10:00:00',
];

const TIMEZONES = ['UTC', 'Europe/Budapest', 'UTC+25', 'UTC-14', 'Mars/Olympus', 'GMT+0', 'EST'];

const NUMBERS: unknown[] = [
  0,
  -0,
  -1,
  1,
  2,
  1.5,
  -1.5,
  50,
  51,
  100,
  2 ** 31 - 1,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 32,
  2 ** 53,
  2 ** 53 + 2,
  2 ** 63,
  1e21,
  1e308,
  -1e308,
  5e-324,
];

const NUMERIC_STRINGS = [
  '0',
  '-1',
  '1',
  '01',
  '000000000000000000001',
  '1.0',
  '1.5',
  '1e3',
  '1E-3',
  '0x1F',
  '0b11',
  ' 7 ',
  '+7',
  '7abc',
  '99999999999999999999999999',
  '-99999999999999999999999999',
  '18446744073709551616',
  '9007199254740993',
  '2147483648',
  '1,2,3',
  '1,,abc,-4',
];

const hugeString = fc
  .tuple(
    fc.integer({ min: 1_000, max: 300_000 }),
    fc.constantFrom('x', 'ő', '😀', '<b>', '\u0000', ' ', 'ab c'),
  )
  .map(([n, unit]) => unit.repeat(Math.ceil(n / unit.length)));

/** Hostile strings: attacks, impossible dates, numbers in disguise, control characters, junk. */
const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...ATTACK_STRINGS) },
  { weight: 3, arbitrary: fc.constantFrom(...DATE_STRINGS) },
  { weight: 2, arbitrary: fc.constantFrom(...NUMERIC_STRINGS) },
  { weight: 1, arbitrary: fc.constantFrom(...TIMEZONES) },
  { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.stringMatching(/^[\u0000-\u001f\u007f-\u009f]{1,20}$/) },
  { weight: 1, arbitrary: hugeString },
);

/** Units whose long runs made patterns backtrack or renderers go quadratic. */
const LONG_UNITS = [
  ' ',
  '\n\n',
  '\t',
  '<div',
  '<p>',
  '<!--',
  '--',
  '"',
  "'",
  '&#',
  '&amp;',
  'next week ',
  'first monday of ',
  'a ',
  'a/',
  '1,',
  '- ',
  '\\',
  '[',
  '%',
];

/** Long, repetitive text: a head, `bytes` worth of one unit, a tail (`"a" + spaces + "!"`). */
const longText = (min: number, max: number): fc.Arbitrary<string> =>
  fc
    .tuple(
      fc.integer({ min, max }),
      fc.constantFrom(...LONG_UNITS),
      fc.constantFrom('', 'a', 'next week', '<p>', '2026-01-01', 'Europe'),
      fc.constantFrom('', '!', 'x', ' Europe/Budapest', '</div>'),
    )
    .map(([n, unit, head, tail]) => head + unit.repeat(Math.ceil(n / unit.length)) + tail);

const isDateField = (name: string) =>
  /(?:^|_)date(?:_|$)/.test(name) || /^(?:starts|ends)_(?:before|after)$/.test(name);

/** Free-text fields of the five resources (a declared `string` type counts too). */
const TEXT_FIELDS = new Set([
  'title',
  'description',
  'excerpt',
  'venue',
  'organizer',
  'address',
  'city',
  'country',
  'province',
  'state',
  'stateprovince',
  'zip',
  'phone',
  'website',
  'email',
  'name',
  'slug',
  'search',
  'cost',
  'password',
]);
const isTextOrDate = (spec: ArgSpec | undefined, name: string) =>
  isDateField(name) || TEXT_FIELDS.has(name) || spec?.type === 'string';

/** ID-list fields (declared arrays, and the linking fields). */
const isListField = (spec: ArgSpec | undefined, name: string) =>
  spec?.type === 'array' || (name in LINKS && name !== 'translation_of' && name !== 'parent');

/** Tens of thousands of IDs: a run, one repeated, or unknown ones. */
const manyIds: fc.Arbitrary<number[]> = fc
  .tuple(fc.integer({ min: 10_000, max: 50_000 }), fc.constantFrom('run', 'same', 'unknown'))
  .map(([n, mode]) =>
    Array.from({ length: n }, (_, i) =>
      mode === 'run' ? i + 1 : mode === 'same' ? 1 : 10 ** 6 + i,
    ),
  );

/** As many IDs as a query string holds: `1,2,3,...`, sent raw (commas unencoded). */
const urlIds: fc.Arbitrary<string> = fc
  .tuple(fc.integer({ min: 1_000, max: 7_000 }), fc.boolean())
  .map(([n, repeated]) =>
    Array.from({ length: n }, (_, i) => (repeated ? 1 : i + 1))
      .join(',')
      .slice(0, MAX_URL_QUERY - 100),
  );

/** Thousands of inline organizers in one event write. */
const inlineOrganizers: fc.Arbitrary<unknown[]> = fc
  .tuple(fc.integer({ min: 1_000, max: 5_000 }), fc.boolean())
  .map(([n, withEmail]) =>
    Array.from({ length: n }, (_, i) =>
      withEmail
        ? { organizer: `Org ${i}`, email: `org${i}@example.org` }
        : { organizer: `Org ${i}` },
    ),
  );

const hostileNumber: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(...NUMBERS),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** Any JSON value, shallow. */
const jsonValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileString,
    hostileNumber,
    fc.boolean(),
    fc.constant(null),
    ref('id'),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(hostileString, fc.string({ maxLength: 8 })), tie('value'), {
      maxKeys: 4,
    }),
  ),
})).value;

/** A value meant for an argument of a declared type: usually plausible, often hostile. */
function valueFor(
  spec: ArgSpec | undefined,
  name: string,
  collection?: string,
): fc.Arbitrary<unknown> {
  const plausible: fc.Arbitrary<unknown>[] = [];
  const kind = name in LINKS ? LINKS[name] || collection : undefined;
  const id = ref('id', kind);
  if (spec?.enum?.length) plausible.push(fc.constantFrom(...spec.enum));
  switch (spec?.type) {
    case 'integer':
      plausible.push(id, fc.integer({ min: -5, max: 60 }), fc.constantFrom(...NUMBERS));
      break;
    case 'number':
      plausible.push(fc.double({ min: -200, max: 200, noNaN: true }), fc.constantFrom(...NUMBERS));
      break;
    case 'boolean':
      plausible.push(fc.boolean(), fc.constantFrom('true', 'false', '1', '0', 'yes', 1, 0));
      break;
    case 'array':
      plausible.push(
        fc.array(fc.oneof(id, fc.integer({ min: -3, max: 100 })), { maxLength: 5 }),
        fc.array(id, { maxLength: 3 }),
        id,
        fc.array(hostileString, { maxLength: 3 }),
      );
      break;
    case 'object':
      plausible.push(
        fc.dictionary(fc.string({ maxLength: 6 }), jsonValue, { maxKeys: 3 }),
        fc.constantFrom('Free', '10', '$5 - $10', 'ingyenes'),
      );
      break;
    default:
      plausible.push(fc.string({ maxLength: 30 }));
  }
  if (/date/.test(name)) plausible.push(fc.constantFrom(...DATE_STRINGS));
  if (isTextOrDate(spec, name)) plausible.push(longText(10_000, 80_000));
  if (name === 'timezone') plausible.push(fc.constantFrom(...TIMEZONES));
  if (name === 'slug') plausible.push(ref('slug', collection));
  if (name === 'venue' || name === 'organizer') plausible.push(id);
  // Links, the Virtual Events module's too (http(s) only, else a localized 400).
  if (name === 'website' || name === 'image' || name === 'virtual_url') {
    plausible.push(
      fc.webUrl(),
      fc.constantFrom('javascript:alert(1)', 'http://', 'ftp://x.test/a.png', '//x.test'),
    );
  }
  if (name === 'email') plausible.push(fc.emailAddress(), fc.constant('not-an-email'));
  if (name === 'i18n_language' || name === 'language') {
    plausible.push(fc.constantFrom('en', 'hu', 'ro', 'de', 'HU', '', 'en_US'));
  }
  return fc.oneof(
    { weight: 3, arbitrary: fc.oneof(...plausible) },
    { weight: 2, arbitrary: jsonValue },
  );
}

const EXTRA_KEYS = [
  'id',
  'foo',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'a[b][c][d][e][f][g][h]',
  'page[]',
  'per_page[0]',
  'status[]',
  'title[en]',
  '',
  'x'.repeat(2000),
];

function queryArb(target: Target): fc.Arbitrary<QueryPair[]> {
  const names = [...Object.keys(target.args), 'page', 'per_page', 'i18n_language'];
  const pair = fc
    .tuple(
      fc.oneof(
        { weight: 6, arbitrary: fc.constantFrom(...names) },
        { weight: 1, arbitrary: fc.constantFrom(...EXTRA_KEYS) },
        { weight: 1, arbitrary: hostileString },
      ),
      fc.constantFrom<'encoded' | 'raw'>('encoded', 'encoded', 'encoded', 'raw'),
    )
    .chain(([key, encoding]) =>
      valueFor(target.args[key], key, collectionOf(target.path)).map((value) => ({
        key,
        value,
        encoding,
      })),
    );
  // Huge values in the URL only ever meet the 16 KB header limit (431): keep a few of them.
  const pairs = fc
    .tuple(fc.array(pair, { maxLength: 6 }), fc.nat({ max: 15 }))
    .map(([list, n]) =>
      n === 0
        ? list
        : list.filter((p) => encode(p.key).length + encode(stringify(p.value)).length < 2_000),
    );
  // One parameter as long or as wide as a URL holds, beside a few ordinary ones.
  const textNames = names.filter((n) => isTextOrDate(target.args[n], n));
  const listNames = names.filter((n) => isListField(target.args[n], n));
  const wide: fc.Arbitrary<QueryPair>[] = [];
  if (textNames.length) {
    wide.push(
      fc
        .tuple(fc.constantFrom(...textNames), longText(2_000, 4_500))
        .map(([key, value]) => ({ key, value, encoding: 'encoded' as const })),
    );
  }
  if (listNames.length) {
    wide.push(
      fc
        .tuple(fc.constantFrom(...listNames), urlIds)
        .map(([key, value]) => ({ key, value, encoding: 'raw' as const })),
    );
  }
  const widePairs = wide.length
    ? fc
        .tuple(fc.oneof(...wide), fc.array(pair, { maxLength: 2 }))
        .map(([big, rest]) => [
          big,
          ...rest.filter((p) => encode(p.key).length + encode(stringify(p.value)).length < 200),
        ])
        .filter(
          (list) => list.reduce((n, p) => n + encode(stringify(p.value)).length, 0) < MAX_URL_QUERY,
        )
    : pairs;
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant<QueryPair[]>([]) },
    { weight: 4, arbitrary: pairs },
    { weight: 1, arbitrary: widePairs },
  );
}

const JSON_TYPES = ['application/json', 'application/json; charset=utf-8', 'application/JSON'];
const WRONG_TYPES = [
  'text/plain',
  'application/xml',
  'text/html',
  'multipart/form-data',
  'multipart/form-data; boundary=----x',
  'application/octet-stream',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'application/json; charset=nope',
  'application/vnd.api+json',
  'application/x-www-form-urlencoded; charset=ebcdic',
  '*/*',
  'json',
  ';;;',
];

const MALFORMED_JSON = [
  '{',
  '}',
  '{"title":',
  '{"title": "x",}',
  "{'title': 'x'}",
  '{"title": undefined}',
  '{"page": NaN}',
  '{"a":1}{"b":2}',
  '[1, 2',
  '\ufeff{"title":"bom"}',
  '{"title":"\\ud800"}',
  '{"title":"\\x41"}',
  '{"title":"\u0000"}',
  '{"title":"a\nb"}',
  '{"title":1e99999}',
  '{"__proto__":{"role":"administrator"}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  'null',
  'true',
  '"just a string"',
  '12',
  '',
  ' ',
];

/** The fields a create of the target's resource requires, valid. */
function baseFor(target: Target, name: string, days: number): Record<string, unknown> {
  const path = target.path.slice(NS.length);
  if (path.startsWith('/events')) {
    const date = new Date(Date.UTC(2020, 0, 1) + days * 86_400_000).toISOString().slice(0, 10);
    return { title: name, start_date: `${date} 10:00:00`, end_date: `${date} 12:00:00` };
  }
  if (path.startsWith('/venues')) return { venue: name };
  if (path.startsWith('/organizers')) return { organizer: name };
  if (path.startsWith('/categories') || path.startsWith('/tags')) return { name };
  return {};
}

/**
 * A body that could be accepted (the required fields of a create, a fresh name) with up to two
 * generated fields on top (never `id` or `i18n_language`, which would fail it most of the time).
 */
function plausibleBody(target: Target): fc.Arbitrary<Record<string, unknown>> {
  const names = Object.keys(target.args).filter((n) => n !== 'id' && n !== 'i18n_language');
  return fc
    .tuple(
      fc.string({ minLength: 1, maxLength: 12 }),
      fc.nat({ max: 3650 }),
      fc.subarray(names, { maxLength: Math.min(2, names.length) }),
    )
    .chain(([suffix, days, picked]) =>
      fc
        .record(
          Object.fromEntries(
            picked.map((name) => [
              name,
              valueFor(target.args[name], name, collectionOf(target.path)),
            ]),
          ),
        )
        .map((extra) => ({ ...baseFor(target, `Fuzz ${suffix}`, days), ...extra })),
    );
}

/**
 * A body that could be accepted with one field made long or wide: 10-80 KB of repetitive text in
 * a date or text field, a 70 KB title, a 3 KB website, a 312-character password, tens of
 * thousands of IDs in a list field, thousands of inline organizers.
 */
function heavyBody(target: Target): fc.Arbitrary<Record<string, unknown>> {
  const names = Object.keys(target.args).filter((n) => n !== 'id' && n !== 'i18n_language');
  const texts = names.filter((n) => isTextOrDate(target.args[n], n));
  const lists = names.filter((n) => isListField(target.args[n], n));
  const field: fc.Arbitrary<[string, unknown]>[] = [];
  if (texts.length) field.push(fc.tuple(fc.constantFrom(...texts), longText(10_000, 80_000)));
  if (lists.length) field.push(fc.tuple(fc.constantFrom(...lists), manyIds));
  const has = (name: string) => names.includes(name);
  if (has('title')) field.push(fc.constant(['title', `Long ${'title '.repeat(14_000)}`]));
  if (has('website')) field.push(fc.constant(['website', `https://x.test/${'a'.repeat(3_000)}`]));
  if (has('password')) field.push(fc.constant(['password', 'p'.repeat(312)]));
  if (has('organizer') && target.path.includes('/events')) {
    field.push(fc.tuple(fc.constant('organizer'), inlineOrganizers));
  }
  if (!field.length) return plausibleBody(target);
  return fc
    .tuple(plausibleBody(target), fc.oneof(...field))
    .map(([body, [name, value]]) => ({ ...body, [name]: value }));
}

/** Rules of every density, dense and rare, bounded and not (issue 44: series from any year). */
const SERIES_RULES = [
  'FREQ=DAILY',
  'FREQ=WEEKLY',
  'FREQ=MONTHLY',
  'FREQ=YEARLY',
  'FREQ=YEARLY;BYMONTH=1,2,3,4,5,6,7,8,9,10,11,12;BYMONTHDAY=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28',
  'FREQ=DAILY;BYMONTH=2;BYMONTHDAY=29',
  'FREQ=MONTHLY;BYDAY=-1FR',
  'FREQ=WEEKLY;COUNT=5',
  'FREQ=DAILY;UNTIL=99991230',
  'FREQ=YEARLY;INTERVAL=1000',
];

/**
 * A create or update of a recurring event whose series starts in any year 1-9999: what it
 * costs follows what it stores (at most 1,000 occurrences), never how long ago it started.
 */
function oldSeriesBody(target: Target): fc.Arbitrary<Record<string, unknown>> {
  return fc
    .tuple(
      plausibleBody(target),
      fc.oneof(fc.integer({ min: 1, max: 9999 }), fc.integer({ min: 1000, max: 2100 })),
      fc.integer({ min: 1, max: 12 }),
      fc.integer({ min: 1, max: 28 }),
      fc.constantFrom(...SERIES_RULES),
    )
    .map(([body, year, month, day, rule]) => {
      const date = `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
      return {
        ...body,
        start_date: `${date} 10:00:00`,
        end_date: `${date} 11:00:00`,
        recurrence: { rules: [rule] },
      };
    });
}

function bodyArb(target: Target): fc.Arbitrary<Body> {
  const names = Object.keys(target.args);
  const field = fc.constantFrom(...(names.length ? names : ['title']));
  const argsObject = fc
    .tuple(
      fc.subarray(names, { minLength: 0 }),
      fc.array(fc.constantFrom(...EXTRA_KEYS, 'title', 'venue', 'organizer', 'name'), {
        maxLength: 2,
      }),
    )
    .chain(([picked, extra]) =>
      fc.record(
        Object.fromEntries(
          [...picked, ...extra].map((name) => [
            name,
            valueFor(target.args[name], name, collectionOf(target.path)),
          ]),
        ),
      ),
    );
  const plausible = plausibleBody(target);
  const json = (value: fc.Arbitrary<unknown>) =>
    fc
      .tuple(value, fc.constantFrom(...JSON_TYPES))
      .map(([v, contentType]): Body => ({ kind: 'json', value: v, contentType }));
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant<Body>({ kind: 'none' }) },
    { weight: 6, arbitrary: json(argsObject) },
    { weight: 6, arbitrary: json(plausible) },
    { weight: 2, arbitrary: json(heavyBody(target)) },
    ...('recurrence' in target.args ? [{ weight: 2, arbitrary: json(oldSeriesBody(target)) }] : []),
    { weight: 2, arbitrary: json(jsonValue) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.constantFrom(...MALFORMED_JSON), fc.constantFrom(...JSON_TYPES))
        .map(([text, contentType]): Body => ({ kind: 'text', text, contentType })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.integer({ min: 50, max: 100_000 }), fc.constantFrom('array', 'object'), field)
        .map(([depth, shape, f]): Body => ({ kind: 'deep', depth, shape, field: f })),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          argsObject,
          fc.uint8Array({ minLength: 1, maxLength: 48 }),
          fc.constantFrom(...JSON_TYPES, 'application/x-www-form-urlencoded'),
        )
        .map(([prefix, bytes, contentType]): Body => ({
          kind: 'bytes',
          prefix,
          bytes,
          contentType,
        })),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          fc.array(
            fc
              .tuple(
                fc.oneof(fc.constantFrom(...names, 'x'), fc.constantFrom(...EXTRA_KEYS)),
                fc.constantFrom<'encoded' | 'raw'>('encoded', 'raw'),
              )
              .chain(([key, encoding]) =>
                valueFor(target.args[key], key, collectionOf(target.path)).map((value) => ({
                  key,
                  value,
                  encoding,
                })),
              ),
            { maxLength: 6 },
          ),
          fc.constantFrom('application/x-www-form-urlencoded', ...WRONG_TYPES),
        )
        .map(([pairs, contentType]): Body => ({ kind: 'form', pairs, contentType })),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(argsObject, fc.constantFrom(...WRONG_TYPES))
        .map(([value, contentType]): Body => ({ kind: 'json', value, contentType })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom('gzip', 'deflate', 'br', 'compress', 'identity', 'x-unknown'),
          fc.uint8Array({ minLength: 0, maxLength: 64 }),
        )
        .map(([encoding, bytes]): Body => ({ kind: 'encoded', encoding, bytes })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(...JSON_TYPES, 'application/x-www-form-urlencoded', 'text/plain')
        .map((contentType): Body => ({ kind: 'oversize', contentType })),
    },
  );
}

const pathText = (values: fc.Arbitrary<string>): fc.Arbitrary<PathPart> =>
  fc
    .tuple(values, fc.constantFrom<'encoded' | 'raw'>('encoded', 'encoded', 'raw'))
    .map(([text, encoding]) => ({ kind: 'text', text, encoding }));

const idPart = (collection?: string): fc.Arbitrary<PathPart> =>
  fc.oneof(
    { weight: 3, arbitrary: ref('id', collection).map((r): PathPart => ({ kind: 'ref', ref: r })) },
    { weight: 2, arbitrary: ref('id').map((r): PathPart => ({ kind: 'ref', ref: r })) },
    {
      weight: 3,
      arbitrary: pathText(
        fc.oneof(
          fc.constantFrom(
            '0',
            '00',
            '-1',
            '1',
            '999999999',
            '999999999999999',
            '9999999999999999',
            '99999999999999999999999999999',
            '1e3',
            '1.5',
            '0x10',
            '%FF',
            '%00',
            '%C0%80',
            '%2F',
            '%',
            '%zz',
            '..',
            '.',
            '1 OR 1=1',
            "1'",
            '<b>',
          ),
          fc.nat().map(String),
          hostileString,
        ),
      ),
    },
  );

const slugPart = (collection?: string): fc.Arbitrary<PathPart> =>
  fc.oneof(
    {
      weight: 3,
      arbitrary: ref('slug', collection).map((r): PathPart => ({ kind: 'ref', ref: r })),
    },
    { weight: 1, arbitrary: ref('slug').map((r): PathPart => ({ kind: 'ref', ref: r })) },
    {
      weight: 3,
      arbitrary: pathText(
        fc.oneof(
          fc.constantFrom(
            '%FF%FE',
            '%ED%A0%80',
            '%C3%28',
            '%00',
            '%',
            '%zz',
            '..',
            'a%2Fb',
            'x'.repeat(5000),
          ),
          hostileString,
        ),
      ),
    },
  );

const junkPart = pathText(
  fc.oneof(fc.constantFrom('nope', 'events2', 'doc/ui/x', '%FF', '..%2F..%2Fetc'), hostileString),
);

const BAD_AUTH_HEADERS = [
  basic('administrator', 'wrong password'),
  basic('nobody-here', 'x'),
  'Basic !!!not-base64',
  `Basic ${Buffer.from('no-colon').toString('base64')}`,
  'Bearer abc.def.ghi',
  'Basic',
  `Basic ${Buffer.from([0xff, 0xfe, 0x3a, 0x00]).toString('base64')}`,
  basic('administrator', 'p'.repeat(312)),
];

/**
 * Most requests are noisy (any prefix, credentials, query and body); one in four is plausible
 * (an administrator or contributor, no query, a body that could be accepted), so that writes
 * succeed now and then and the state the noisy ones meet keeps changing.
 */
function requestArb(targets: Target[]): fc.Arbitrary<GenRequest> {
  return fc.constantFrom(...targets).chain((target) => {
    const collection = collectionOf(target.path);
    const common = {
      target: fc.constant(target),
      prefix: fc.constantFrom<GenRequest['prefix']>('', '', '/en', '/hu', '/hu', '/ro', '/ro'),
      badAuth: fc.constantFrom(...BAD_AUTH_HEADERS),
      id: idPart(collection),
      slug: slugPart(collection),
      junk: junkPart,
    };
    const noisy = fc.record({
      ...common,
      via: fc.constantFrom<Via>(
        'direct',
        'direct',
        'direct',
        'direct',
        'header',
        'query',
        'query-body',
        'junk-method',
      ),
      junkMethod: fc.constantFrom(...JUNK_METHODS),
      auth: fc.oneof(
        { weight: 4, arbitrary: fc.constant<Auth>('anonymous') },
        { weight: 5, arbitrary: fc.constant<Auth>('administrator') },
        { weight: 3, arbitrary: fc.constant<Auth>('contributor') },
        { weight: 1, arbitrary: fc.constant<Auth>('bad') },
      ),
      query: queryArb(target),
      body: bodyArb(target),
    });
    const plausible = fc.record({
      ...common,
      via: fc.constantFrom<Via>('direct', 'direct', 'header', 'query', 'query-body'),
      auth: fc.constantFrom<Auth>('administrator', 'administrator', 'contributor'),
      query: fc.constant<QueryPair[]>([]),
      body: fc
        .oneof(
          { weight: 3, arbitrary: plausibleBody(target) },
          { weight: 1, arbitrary: heavyBody(target) },
        )
        .map((value): Body => ({ kind: 'json', value, contentType: 'application/json' })),
    });
    return fc.oneof({ weight: 3, arbitrary: noisy }, { weight: 1, arbitrary: plausible });
  });
}

// ---------------------------------------------------------------------------------------------
// The sweep: every date and text field, list field and inline list of every route, once per run,
// with long or wide input (random generation alone would reach a given field with a given
// pathological value too rarely).

/** The outside security probe's date inputs, and texts that made renderers go quadratic. */
const DATE_PROBES = [
  (n: number) => `a${' '.repeat(n)}!`,
  (n: number) => `next week${' '.repeat(n)}`,
  (n: number) => `saturday${' '.repeat(n)}next week!`,
  (n: number) => `${'first monday of '.repeat(n / 16)}x`,
];
const TEXT_PROBES = [
  (n: number) => '<div'.repeat(n / 4),
  (n: number) => `a${'\n\n'.repeat(n / 2)}b`,
  (n: number) => `${'--'.repeat(n / 2)}x`,
  (n: number) => `"${'"'.repeat(n)}`,
  (n: number) => '&#'.repeat(n / 2),
  (n: number) => `'${"'".repeat(n)}x`,
  (n: number) => `a${' '.repeat(n)}!`,
  (n: number) => '<p>'.repeat(n / 3),
  (n: number) => '<!--'.repeat(n / 4),
  (n: number) => '1,'.repeat(n / 2),
];

function sweep(targets: Target[]): GenRequest[] {
  const requests: GenRequest[] = [];
  const seen = new Set<string>();
  let turn = 0;
  for (const target of targets) {
    if (target.key.includes('wrong method') || !target.path.startsWith(NS)) continue;
    const collection = collectionOf(target.path);
    const read = target.method === 'GET' || target.method === 'DELETE';
    const kind = `${read ? target.method : 'write'} ${collection} ${target.path.includes('{') ? 'item' : 'all'}`;
    const base: GenRequest = {
      target,
      prefix: '',
      auth: 'administrator',
      badAuth: '',
      id: { kind: 'ref', ref: { __ref: 'id', kind: collection, n: turn } },
      slug: { kind: 'ref', ref: { __ref: 'slug', kind: collection, n: turn } },
      junk: { kind: 'text', text: 'x', encoding: 'encoded' },
      query: [],
      body: { kind: 'none' },
    };
    /** One request per kind of route and field (`what` tells long text from a long list). */
    const add = (what: string, name: string, value: unknown, encoding: 'encoded' | 'raw') => {
      const key = `${kind} ${name} ${what}`;
      if (seen.has(key)) return;
      seen.add(key);
      turn++;
      requests.push(
        read
          ? { ...base, query: [{ key: name, value, encoding }] }
          : {
              ...base,
              body: {
                kind: 'json',
                contentType: 'application/json',
                value: { ...baseFor(target, `Sweep ${turn}`, turn), [name]: value },
              },
            },
      );
    };
    // Bodies get 40 KB and 20,000 IDs; a query string what fits in Node's 16 KB request line.
    const size = read ? 4_000 : 40_000;
    const ids = Array.from({ length: read ? 5_000 : 20_000 }, (_, i) => i + 1);
    for (const [name, spec] of Object.entries(target.args)) {
      if (name === 'id' || name === 'i18n_language') continue;
      if (isDateField(name)) {
        add('text', name, DATE_PROBES[turn % DATE_PROBES.length](size), 'encoded');
      } else if (isTextOrDate(spec, name)) {
        add('text', name, TEXT_PROBES[turn % TEXT_PROBES.length](size), 'encoded');
      }
      if (isListField(spec, name)) add('list', name, read ? ids.join(',') : ids, 'raw');
    }
    if (!read && collection === 'events') {
      const body = (extra: Record<string, unknown>): GenRequest => ({
        ...base,
        body: {
          kind: 'json',
          contentType: 'application/json',
          value: { ...baseFor(target, `Sweep ${++turn}`, turn), ...extra },
        },
      });
      if (!seen.has(`${kind} (wide)`)) {
        seen.add(`${kind} (wide)`);
        requests.push(
          body({ organizer: Array.from({ length: 2_000 }, (_, i) => ({ organizer: `Org ${i}` })) }),
          body({ title: `Long ${'title '.repeat(14_000)}` }),
          body({ website: `https://x.test/${'a'.repeat(3_000)}`, password: 'p'.repeat(312) }),
        );
      }
    }
  }
  return requests;
}

// ---------------------------------------------------------------------------------------------
// Turning a generated request into bytes.

/** Percent-encodes every byte but the unreserved ones; lone surrogates become U+FFFD. */
const encode = (s: string) =>
  [...Buffer.from(s, 'utf8')]
    .map((b) =>
      /[A-Za-z0-9\-._~]/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');

/**
 * "raw": sent as it is, as far as an HTTP request line allows (Node refuses characters outside
 * \x21-\xff; those are encoded); characters \x80-\xff go out as single bytes, i.e. invalid UTF-8,
 * and `%`, `%zz`, `%FF` stay malformed/invalid escapes.
 */
const raw = (s: string) =>
  [...s]
    .map((c) => {
      const code = c.charCodeAt(0);
      if (c.length === 1 && code >= 0x21 && code <= 0xff && !'#?&='.includes(c)) return c;
      return encode(c);
    })
    .join('');

function stringify(value: unknown): string {
  if (typeof value === 'string') return value;
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}

/** Existing records' IDs and slugs: all of them, and by collection. */
interface Pools {
  ids: number[];
  slugs: string[];
  byKind: Record<string, { ids: number[]; slugs: string[] }>;
}

function remember(pools: Pools, kind: string | undefined, id: unknown, slug: unknown): void {
  const own = kind ? (pools.byKind[kind] ??= { ids: [], slugs: [] }) : undefined;
  if (typeof id === 'number') {
    if (!pools.ids.includes(id)) pools.ids.push(id);
    if (own && !own.ids.includes(id)) own.ids.push(id);
  }
  if (typeof slug === 'string' && slug) {
    if (!pools.slugs.includes(slug)) pools.slugs.push(slug);
    if (own && !own.slugs.includes(slug)) own.slugs.push(slug);
  }
}

function resolve(value: unknown, pools: Pools): unknown {
  if (Array.isArray(value)) return value.map((v) => resolve(v, pools));
  if (value && typeof value === 'object') {
    const r = value as Ref;
    if (r.__ref === 'id' || r.__ref === 'slug') {
      const own = r.kind ? pools.byKind[r.kind] : undefined;
      const list = r.__ref === 'id' ? own?.ids : own?.slugs;
      const all = list?.length ? list : r.__ref === 'id' ? pools.ids : pools.slugs;
      return all[r.n % all.length];
    }
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v, pools)]));
  }
  return value;
}

function pairsToString(pairs: QueryPair[], pools: Pools): string {
  return pairs
    .flatMap(({ key, value, encoding }) => {
      const v = resolve(value, pools);
      const enc = encoding === 'raw' ? raw : encode;
      if (Array.isArray(v)) return v.map((item) => `${enc(key)}[]=${enc(stringify(item))}`);
      return [`${enc(key)}=${enc(stringify(v))}`];
    })
    .join('&');
}

function pathPart(part: PathPart, pools: Pools): string {
  if (part.kind === 'ref') return encode(String(resolve(part.ref, pools)));
  return part.encoding === 'raw' ? raw(part.text) : encode(part.text);
}

/** `i18n_language` as a query parser reads these pairs: repeated, it is a list (no language). */
function languageIn(pairs: QueryPair[], pools: Pools): unknown {
  const found = pairs
    .map((p) => ({ key: p.key, value: resolve(p.value, pools) }))
    // An empty list is not sent at all (see pairsToString).
    .filter((p) => p.key === 'i18n_language' && !(Array.isArray(p.value) && !p.value.length));
  if (found.length > 1) return [];
  return found[0]?.value;
}

interface Wire {
  method: Method;
  /** The method the server must run: the one named by a valid override on a POST. */
  effective?: Method | 'none';
  path: string;
  headers: OutgoingHttpHeaders;
  body?: Buffer;
  /** Language(s) the error message may be in (`i18n_language` wins over the prefix). */
  languages: Lang[];
  /** The prefix's language (or English): all that is known of a request refused as too long. */
  prefixLanguage: Lang;
  describe: string;
}

const isLang = (v: unknown): v is Lang => v === 'en' || v === 'hu' || v === 'ro';

/** A shell word: single-quoted, a quote inside written as '\''. */
const shellWord = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/**
 * The request as a command that sends exactly the same bytes (curl, with the body through
 * printf, whose octal escapes carry any byte, NUL included) to a server at $CAL_URL (default
 * http://localhost:3000): the fuzz's own server is gone once the run ends, and the users and
 * records its ids and credentials name exist only where the same seed was replayed.
 */
function curlCommand(wire: Pick<Wire, 'method' | 'path' | 'headers' | 'body'>): string {
  const headers = Object.entries(wire.headers)
    .filter(([name]) => name !== 'content-length')
    .map(([name, value]) => `-H ${shellWord(`${name}: ${String(value)}`)}`);
  const curl = [
    'curl -sS --globoff --path-as-is -X',
    wire.method,
    ...headers,
    ...(wire.body ? ['--data-binary @-'] : []),
    `"\${CAL_URL:-http://localhost:3000}"${shellWord(wire.path)}`,
  ].join(' ');
  if (!wire.body) return curl;
  let format = '';
  for (const byte of wire.body) {
    const char = String.fromCharCode(byte);
    format +=
      byte >= 0x20 && byte < 0x7f && char !== '\\' && char !== '%' && char !== "'"
        ? char
        : `\\${byte.toString(8).padStart(3, '0')}`;
  }
  return `printf '${format}' | ${curl}`;
}

/** Every language a URL names with a plain `i18n_language=xx` parameter. */
const namedLanguages = (path: string): Lang[] =>
  [...path.matchAll(/[?&]i18n_language=(en|hu|ro)(?=&|$)/gi)].map(
    (m) => m[1].toLowerCase() as Lang,
  );

/** The headers that authenticate as each kind of caller (the contributor through a console session). */
type AuthHeaders = Record<Auth, Record<string, string> | undefined>;

/** Sends `wire` the way `r.via` says (Via). */
function travel(r: GenRequest, wire: Wire, pools: Pools): void {
  const via = r.via ?? 'direct';
  if (via === 'direct') return;
  const method = wire.method;
  const addQuery = (pairs: QueryPair[]) => {
    const text = pairsToString(pairs, pools);
    if (text) wire.path += `${wire.path.includes('?') ? '&' : '?'}${text}`;
  };
  if (via === 'junk-method') {
    if (method !== 'POST') return;
    wire.headers['x-http-method-override'] = r.junkMethod ?? 'TRACE';
    // Upper-cased, a valid method name is a valid override.
    const named = (r.junkMethod ?? '').toUpperCase();
    wire.effective = (METHODS as readonly string[]).includes(named) ? (named as Method) : 'none';
    return;
  }
  if (via === 'query-body' && r.body.kind === 'json') {
    const value = resolve(r.body.value, pools);
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      // `i18n_language` stays where it was: the language the answer must be in follows it.
      const movable = ([key, v]: [string, unknown]) =>
        key !== 'i18n_language' && ['string', 'number', 'boolean'].includes(typeof v);
      const moved = Object.entries(value).filter(movable);
      const kept = Object.fromEntries(Object.entries(value).filter((entry) => !movable(entry)));
      addQuery(moved.map(([key, v]) => ({ key, value: v, encoding: 'encoded' })));
      wire.body = Object.keys(kept).length ? Buffer.from(JSON.stringify(kept)) : undefined;
      if (!wire.body) delete wire.headers['content-type'];
    }
  }
  if (method === 'GET') {
    // Never honoured on GET: the request stays a read.
    wire.headers['x-http-method-override'] = 'DELETE';
    addQuery([{ key: '_method', value: 'DELETE', encoding: 'encoded' }]);
    return;
  }
  if (method === 'POST') return;
  wire.method = 'POST';
  wire.effective = method;
  if (via === 'header') wire.headers['x-http-method-override'] = method;
  else addQuery([{ key: '_method', value: method.toLowerCase(), encoding: 'encoded' }]);
}

function toWire(r: GenRequest, pools: Pools, headers: AuthHeaders): Wire {
  const path = r.target.path
    .replace('{id}', pathPart(r.id, pools))
    .replace('{slug}', pathPart(r.slug, pools))
    // An application password's uuid (the users routes): any segment.
    .replace('{uuid}', pathPart(r.junk, pools))
    .replace('{junk}', pathPart(r.junk, pools));
  const query = pairsToString(r.query, pools);
  const wire: Wire = {
    method: r.target.method,
    path: `${r.prefix}${path}${query ? `?${query}` : ''}`,
    headers: {},
    languages: [],
    prefixLanguage: 'en',
    describe: '',
  };
  const auth = headers[r.auth] ?? (r.auth === 'bad' ? { authorization: r.badAuth } : undefined);
  if (auth) Object.assign(wire.headers, auth);
  const b = r.body;
  let bodyLanguage: unknown;
  switch (b.kind) {
    case 'none':
      break;
    case 'json': {
      const value = resolve(b.value, pools);
      wire.body = Buffer.from(JSON.stringify(value) ?? 'null');
      wire.headers['content-type'] = b.contentType;
      if (value && typeof value === 'object') {
        bodyLanguage = (value as Record<string, unknown>).i18n_language;
      }
      break;
    }
    case 'form':
      wire.body = Buffer.from(pairsToString(b.pairs, pools));
      wire.headers['content-type'] = b.contentType;
      bodyLanguage = languageIn(b.pairs, pools);
      break;
    case 'text':
      wire.body = Buffer.from(b.text);
      wire.headers['content-type'] = b.contentType;
      break;
    case 'bytes': {
      // A JSON object (or form) whose last string value holds raw, mostly invalid UTF-8.
      const prefix = resolve(b.prefix, pools) as Record<string, unknown>;
      const form = b.contentType.startsWith('application/x-www-form-urlencoded');
      const head = form
        ? `${pairsToString(
            Object.entries(prefix).map(([key, value]) => ({ key, value, encoding: 'encoded' })),
            pools,
          )}&title=`
        : `${JSON.stringify(prefix).slice(0, -1)}${Object.keys(prefix).length ? ',' : ''}"title":"`;
      wire.body = Buffer.concat([
        Buffer.from(head),
        Buffer.from([0xff, 0xfe, 0xc0, 0x80, 0xed, 0xa0, 0x80]),
        Buffer.from(
          b.bytes.map((byte) => (!form && (byte === 0x22 || byte === 0x5c) ? 0x78 : byte)),
        ),
        Buffer.from(form ? '' : '"}'),
      ]);
      wire.headers['content-type'] = b.contentType;
      bodyLanguage = prefix.i18n_language;
      break;
    }
    case 'deep': {
      const [open, close] = b.shape === 'array' ? ['[', ']'] : ['{"a":', '}'];
      wire.body = Buffer.from(`{"${b.field}":${open.repeat(b.depth)}1${close.repeat(b.depth)}}`);
      wire.headers['content-type'] = 'application/json';
      break;
    }
    case 'encoded':
      wire.body = Buffer.from(b.bytes);
      wire.headers['content-type'] = 'application/json';
      wire.headers['content-encoding'] = b.encoding;
      break;
    case 'oversize':
      wire.body = Buffer.from(
        b.contentType.includes('json')
          ? JSON.stringify({ title: 'x'.repeat(1_100_000) })
          : `title=${'x'.repeat(1_100_000)}`,
      );
      wire.headers['content-type'] = b.contentType;
      break;
  }
  travel(r, wire, pools);
  if (wire.body) wire.headers['content-length'] = wire.body.length;
  // The language the error must be in: `i18n_language` from the query wins, then from a body
  // the server could parse, then the prefix (CONTRACT §5). When the body decides, both its
  // language and the prefix's are accepted (a body that fails to parse does not count).
  const prefixLanguage: Lang = isLang(r.prefix.slice(1)) ? (r.prefix.slice(1) as Lang) : 'en';
  wire.prefixLanguage = prefixLanguage;
  const queryLanguage = languageIn(r.query, pools);
  const bl = resolve(bodyLanguage, pools);
  if (isLang(queryLanguage)) wire.languages = [queryLanguage];
  else if (queryLanguage === undefined && isLang(bl)) wire.languages = [bl, prefixLanguage];
  else wire.languages = [prefixLanguage];
  const bodyText = wire.body ? wire.body.subarray(0, 300).toString('latin1') : '';
  const override = wire.headers['x-http-method-override'];
  wire.describe = `${wire.method}${override === undefined ? '' : ` (X-HTTP-Method-Override: ${String(override).slice(0, 40)})`} ${wire.path.slice(0, 300)} [${r.auth}] ${
    wire.headers['content-type'] ?? ''
  } ${wire.body ? `(${wire.body.length} bytes) ${JSON.stringify(bodyText)}` : ''}`;
  return wire;
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/**
 * Sends one request. A kept-alive connection that the server closed as idle (its keep-alive
 * timeout, 5 s, passes while a loaded machine takes a snapshot between two requests) resets the
 * next request sent on it before the server reads any of it: that request is sent again, once, on
 * a new connection, as Node's documentation advises (`request.reusedSocket`). Any other reset, and
 * a reset on a new connection, is an answer missing.
 */
async function send(port: number, agent: Agent, wire: Wire): Promise<Answer> {
  try {
    return await sendOnce(port, agent, wire);
  } catch (error) {
    if (!(error as { staleConnection?: boolean }).staleConnection) throw error;
    return sendOnce(port, agent, wire);
  }
}

function sendOnce(port: number, agent: Agent, wire: Wire): Promise<Answer> {
  return new Promise((resolvePromise, reject) => {
    let answered = false;
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: wire.method,
        path: wire.path,
        headers: wire.headers,
        agent,
      },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolvePromise({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
          }),
        );
        res.on('error', reject);
      },
    );
    req.setTimeout(30_000, () => req.destroy(new Error('timeout: no answer within 30 s')));
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (req.reusedSocket && error.code === 'ECONNRESET' && !answered) {
        Object.assign(error, { staleConnection: true });
      }
      reject(error);
    });
    req.end(wire.body);
  });
}

// ---------------------------------------------------------------------------------------------
// Database snapshots.

type Snapshot = Record<string, { rows: number; hash: string }>;

async function tableNames(db: DataSource): Promise<string[]> {
  const type = db.options.type;
  const rows: Record<string, string>[] =
    type === 'mysql' || type === 'mariadb'
      ? await db.query('SHOW TABLES')
      : await db.query(
          "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
        );
  // The webhook dispatcher renews its lease, and the series horizon job (once an hour) takes
  // its own, in the background, whatever a request does.
  return rows
    .map((r) => Object.values(r)[0])
    .filter((name) => !BACKGROUND_TABLES.has(name))
    .sort();
}

/** Tables that processes write on their own schedule, not as a request's effect. */
const BACKGROUND_TABLES = new Set(['leases']);

/**
 * Columns a background process sets after the request that wrote the row has answered: the
 * dispatcher marks a successful write's outbox row dispatched whenever it next runs, which can
 * fall between that write's snapshot and the next request's. The row itself (added or not) is
 * still compared.
 */
const BACKGROUND_COLUMNS: Record<string, readonly string[]> = {
  webhook_outbox: ['dispatched_at'],
};

/** Every table's rows, serialized and sorted (order-free), hashed. */
async function snapshot(db: DataSource, tables: string[]): Promise<Snapshot> {
  const quote = db.options.type === 'better-sqlite3' ? '"' : '`';
  const result: Snapshot = {};
  for (const table of tables) {
    const rows: Record<string, unknown>[] = await db.query(
      `SELECT * FROM ${quote}${table}${quote}`,
    );
    const skip = BACKGROUND_COLUMNS[table] ?? [];
    const lines = rows
      .map((row) =>
        JSON.stringify(Object.entries(row).filter(([column]) => !skip.includes(column))),
      )
      .sort();
    result[table] = {
      rows: rows.length,
      hash: createHash('sha1').update(lines.join('\n')).digest('hex'),
    };
  }
  return result;
}

function changedTables(before: Snapshot, after: Snapshot): string[] {
  return Object.keys({ ...before, ...after }).filter(
    (t) => before[t]?.hash !== after[t]?.hash || before[t]?.rows !== after[t]?.rows,
  );
}

// ---------------------------------------------------------------------------------------------
// Error messages per language, as regular expressions (`{name}` placeholders match anything).

type Catalog = Record<Lang, Record<string, RegExp>>;

function loadCatalog(): Catalog {
  const catalog = {} as Catalog;
  for (const lang of ['en', 'hu', 'ro'] as const) {
    const messages = JSON.parse(
      readFileSync(join(__dirname, '..', 'i18n', lang, 'errors.json'), 'utf8'),
    ) as Record<string, string | Record<string, string>>;
    const pattern = (message: string) =>
      message
        .split(/\{[a-z_]+\}/)
        .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('[\\s\\S]*');
    catalog[lang] = Object.fromEntries(
      Object.entries(messages).map(([key, message]) => [
        key,
        // A message with plural forms matches any of them.
        new RegExp(
          `^(?:${(typeof message === 'string' ? [message] : Object.values(message)).map(pattern).join('|')})$`,
        ),
      ]),
    );
  }
  return catalog;
}

/** The keys whose text may answer `code` (a code can have variants: `term_exists_parent`). */
const keysOf = (catalog: Record<string, RegExp>, code: string) =>
  Object.keys(catalog).filter((key) => key === code || key.startsWith(`${code}_`));

// ---------------------------------------------------------------------------------------------

describe('a failing request, as printed', () => {
  it('is a shell command that sends the same method, path, headers and bytes', async () => {
    let received: { req: IncomingMessage; body: Buffer } | undefined;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received = { req, body: Buffer.concat(chunks) };
        res.end('{}');
      });
    });
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
    const { port } = server.address() as AddressInfo;
    const body = Buffer.concat([
      Buffer.from(`{"title":"it's 100% \\"x\\" {a} [b] $HOME \``),
      Buffer.from([0, 1, 0x0a, 0xff, 0xfe, 0xc0, 0x80]),
      Buffer.from('"}'),
    ]);
    const wire = {
      method: 'POST' as const,
      path: "/ro/cal/events/v1/events/%252F?a[]={'x'}&b=%F4%89&c=$(id)",
      headers: { 'content-type': 'application/JSON', authorization: "Basic it's" },
      body,
    };
    try {
      await new Promise<void>((sent, failed) =>
        execFile(
          'bash',
          ['-c', curlCommand(wire)],
          { env: { PATH: process.env.PATH, CAL_URL: `http://127.0.0.1:${port}` } },
          (error) => (error ? failed(error) : sent()),
        ),
      );
    } finally {
      server.close();
    }
    expect(received!.req.method).toBe('POST');
    expect(received!.req.url).toBe(wire.path);
    expect(received!.req.headers['content-type']).toBe('application/JSON');
    expect(received!.req.headers.authorization).toBe("Basic it's");
    expect(received!.body.equals(body)).toBe(true);
  });
});

describe('fuzz: bad input never breaks anything (e2e)', () => {
  let app: NestExpressApplication;
  let users: RoleUsers;
  let contributorSession: Session;
  let port: number;
  let db: DataSource;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const pools: Pools = { ids: [], slugs: [], byKind: {} };
  /** Wall-clock `ms` of the request log, by `X-Request-Id`. */
  const loggedMs = new Map<string, number>();

  beforeAll(async () => {
    app = await createTestApp({
      logSink: (line) => {
        const entry = JSON.parse(line) as { reqId?: string; ms?: number };
        if (entry.reqId?.startsWith('fuzz-') && typeof entry.ms === 'number') {
          loggedMs.set(entry.reqId, entry.ms);
        }
      },
    });
    await app.listen(0, '127.0.0.1');
    port = (app.getHttpServer().address() as AddressInfo).port;
    db = app.get(DataSource);
    users = await createRoleUsers(app);
    contributorSession = await logIn(app, app.getHttpServer(), users.contributor.login);
  });
  afterAll(async () => {
    agent.destroy();
    await closeApp(app);
  });

  async function call(
    method: Method,
    path: string,
    auth: string | undefined,
    body?: unknown,
  ): Promise<{ status: number; json: Record<string, unknown> }> {
    const data = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const headers: OutgoingHttpHeaders = {};
    if (auth) headers.authorization = auth;
    if (data) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = data.length;
    }
    const res = await send(port, agent, {
      method,
      path,
      headers,
      body: data,
      languages: [],
      prefixLanguage: 'en',
      describe: '',
    });
    return { status: res.status, json: JSON.parse(res.body.toString() || 'null') };
  }

  /** A few real records of every kind, so that generated IDs and slugs sometimes exist. */
  async function seed(): Promise<void> {
    const admin = users.administrator.header;
    const created = async (path: string, body: unknown, auth = admin) => {
      const res = await call('POST', path, auth, body);
      if (res.status !== 201)
        throw new Error(`seed ${path}: ${res.status} ${JSON.stringify(res.json)}`);
      remember(pools, collectionOf(path.replace(/^\/hu/, '')), res.json.id, res.json.slug);
      return res.json.id as number;
    };
    const music = await created(`${NS}/categories`, { name: 'Music' });
    const jazz = await created(`${NS}/categories`, { name: 'Jazz', parent: music });
    const free = await created(`${NS}/tags`, { name: 'free' });
    const outdoor = await created(`${NS}/tags`, { name: 'outdoor' });
    const hall = await created(`${NS}/venues`, { venue: 'Concert Hall', city: 'Budapest' });
    const park = await created(`${NS}/venues`, { venue: 'City Park', country: 'Hungary' });
    const anna = await created(`${NS}/organizers`, {
      organizer: 'Anna',
      email: 'anna@example.org',
    });
    const bela = await created(`${NS}/organizers`, { organizer: 'Béla' });
    const day = (d: number, time = '10:00:00') =>
      `${new Date(Date.now() + d * 86_400_000).toISOString().slice(0, 10)} ${time}`;
    const event = (title: string, d: number, extra: Record<string, unknown> = {}) => ({
      title,
      start_date: day(d),
      end_date: day(d, '12:00:00'),
      ...extra,
    });
    await created(
      `${NS}/events`,
      event('Jazz night', 3, {
        venue: hall,
        organizer: [anna, bela],
        categories: [jazz],
        tags: [free],
      }),
    );
    await created(
      `${NS}/events`,
      event('Picnic', 10, { venue: park, organizer: [bela], categories: [music], tags: [outdoor] }),
    );
    await created(`${NS}/events`, event('Past concert', -20, { venue: hall, categories: [music] }));
    await created(`${NS}/events`, event('Secret', 5, { password: 'open sesame' }));
    await created(`${NS}/events`, event('Draft idea', 7), users.contributor.header);
    await created(`/hu${NS}/events`, event('Magyar est', 4, { venue: hall, tags: [free] }));
    await created(`/hu${NS}/categories`, { name: 'Zene', translation_of: music });
    const trashed = await created(`${NS}/events`, event('Cancelled', 6, { organizer: [anna] }));
    const del = await call('DELETE', `${NS}/events/${trashed}`, admin);
    if (del.status !== 200) throw new Error(`seed trash: ${del.status}`);
    pools.ids.push(users.administrator.id, 0, 999_999);
  }

  async function targets(): Promise<Target[]> {
    const index = await call('GET', NS, undefined);
    const routes = index.json.routes as Record<
      string,
      { endpoints: { methods: string[]; args: Record<string, ArgSpec> }[] }
    >;
    const list: Target[] = [];
    for (const row of ROUTE_TABLE) {
      const endpoints = routes[`${NS}${row.pattern}`]?.endpoints ?? [];
      const declared = row.groups.flat();
      for (const method of METHODS) {
        const endpoint = endpoints.find((e) => e.methods.includes(method));
        list.push({
          key: `${method} ${NS}${row.path}${declared.includes(method) ? '' : ' (wrong method)'}`,
          method,
          path: `${NS}${row.path}`,
          args: endpoint?.args ?? {},
        });
      }
    }
    for (const method of METHODS) {
      const wrong = method === 'GET' ? '' : ' (wrong method)';
      list.push({ key: `${method} /health${wrong}`, method, path: '/health', args: {} });
      list.push({ key: `${method} ${NS}/doc/ui${wrong}`, method, path: `${NS}/doc/ui`, args: {} });
      list.push({ key: `${method} ${NS}/{junk}`, method, path: `${NS}/{junk}`, args: {} });
    }
    // The iCalendar feeds: the list's parameters, and one event's.
    const eventsGet = routes[`${NS}/events`]?.endpoints.find((e) => e.methods.includes('GET'));
    const eventRow = ROUTE_TABLE.find((row) => row.path === '/events/{id}');
    const eventGet = routes[`${NS}${eventRow?.pattern}`]?.endpoints.find((e) =>
      e.methods.includes('GET'),
    );
    list.push({
      key: `GET ${NS}/events.ics`,
      method: 'GET',
      path: `${NS}/events.ics`,
      args: eventsGet?.args ?? {},
    });
    list.push({
      key: `GET ${NS}/events/{id}.ics`,
      method: 'GET',
      path: `${NS}/events/{id}.ics`,
      args: eventGet?.args ?? {},
    });
    list.push({
      key: `GET ${NS}/events/{id}/{junk}`,
      method: 'GET',
      path: `${NS}/events/{id}/{junk}`,
      args: {},
    });
    return list;
  }

  it(
    `answers ${RUNS} generated malformed requests without a 5xx, in the error shape, localized, and without partial writes`,
    async () => {
      await seed();
      const routeTargets = await targets();
      // The extension modules' fields are fuzzed with the core's (Virtual Events, issue 49).
      const argsOf = (key: string) => Object.keys(routeTargets.find((t) => t.key === key)!.args);
      expect(argsOf(`POST ${NS}/events`)).toEqual(
        expect.arrayContaining(['is_virtual', 'virtual_url', 'virtual_video_source']),
      );
      expect(argsOf(`POST ${NS}/events/{id}`)).toContain('virtual_url');
      expect(argsOf(`GET ${NS}/events`)).toContain('virtual');
      // Declared methods get most of the requests; wrong methods and extras the rest.
      const weighted = routeTargets.flatMap((t) =>
        t.key.includes('wrong method') || !t.key.includes(NS) || t.path.includes('{junk}')
          ? [t]
          : [t, t, t, t],
      );
      const catalog = loadCatalog();
      const tables = await tableNames(db);
      let current = await snapshot(db, tables);
      let badAuthSent = 0;
      /** Successful writes that changed the database (the snapshots do see changes). */
      let changingWrites = 0;
      const perRoute = new Map<string, number>();
      const statuses = new Map<number, number>();
      const violations: {
        route: string;
        reason: string;
        request: string;
        answer: string;
        replay: string;
      }[] = [];
      /** Server CPU ms and logged wall ms of every request, for the slowest ones in the summary. */
      const timings: { cpuMs: number; wallMs: number | undefined; request: string }[] = [];
      let requestNumber = 0;

      // Untimed warm-up: the first request of a route compiles code and fills lazy caches.
      for (const target of routeTargets) {
        if (target.path.includes('{')) continue;
        for (const prefix of ['', '/hu', '/ro']) {
          await send(port, agent, {
            method: target.method,
            path: prefix + target.path,
            headers: {},
            languages: [],
            prefixLanguage: 'en',
            describe: '',
          });
        }
      }
      current = await snapshot(db, tables);
      // The contributor calls as the console does: its session cookie and the nonce (CONTRACT §2).
      const authHeaders: AuthHeaders = {
        anonymous: undefined,
        administrator: { authorization: users.administrator.header },
        contributor: { cookie: contributorSession.cookie, 'x-wp-nonce': contributorSession.nonce },
        bad: undefined,
      };

      /** Sends one request and records every property it breaks. */
      const exchange = async (generated: GenRequest) => {
        const r = { ...generated };
        // Wrong credentials count towards the login throttle: only a few per test.
        if (r.auth === 'bad' && badAuthSent >= BAD_AUTH_BUDGET) r.auth = 'anonymous';
        if (r.auth === 'bad') badAuthSent++;
        const wire = toWire(r, pools, authHeaders);
        const route = r.target.key;
        perRoute.set(route, (perRoute.get(route) ?? 0) + 1);
        let status = 0;
        const violation = (reason: string, answer = '') =>
          violations.push({
            route,
            reason,
            request: wire.describe,
            answer: `${status} ${answer.slice(0, 600)}`,
            replay: curlCommand(wire),
          });

        const requestId = `fuzz-${++requestNumber}`;
        wire.headers['x-request-id'] = requestId;
        let res: Answer;
        const cpuBefore = threadCpuMs();
        try {
          res = await send(port, agent, wire);
        } catch (error) {
          violation(`no answer: ${(error as Error).message}`);
          current = await snapshot(db, tables);
          return;
        }
        const cpuMs = threadCpuMs() - cpuBefore;
        const wallMs = loggedMs.get(requestId);
        loggedMs.delete(requestId);
        timings.push({ cpuMs, wallMs, request: wire.describe });
        status = res.status;
        if (cpuMs > MAX_SERVER_MS) {
          violation(
            `server time ${Math.round(cpuMs)} ms of CPU > ${MAX_SERVER_MS} ms ` +
              `(logged ${wallMs === undefined ? '-' : Math.round(wallMs)} ms wall)`,
          );
        }
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        const bodyText = res.body.toString('utf8');
        if (res.status >= 500) violation(`status ${res.status}`, bodyText);
        if (res.status >= 400) {
          let body: { code?: unknown; message?: unknown; data?: { status?: unknown } } | null =
            null;
          if (!/^application\/json/i.test(String(res.headers['content-type']))) {
            violation(
              `error without JSON content type: ${String(res.headers['content-type'])}`,
              bodyText,
            );
          }
          try {
            body = JSON.parse(bodyText);
          } catch {
            violation('error body is not JSON', bodyText);
          }
          if (body) {
            const { code, message, data } = body;
            if (typeof code !== 'string') violation('error without a string code', bodyText);
            if (typeof message !== 'string' || !message)
              violation('error without a message', bodyText);
            if (!data || data.status !== res.status)
              violation(`data.status is not ${res.status}`, bodyText);
            // A request line too long to read (431) may have lost its `i18n_language`, and
            // when Node gives up in a later packet than the one with the request line, its
            // prefix too: then the answer is in the default language (src/common/http/
            // client-error.ts). What did arrive decides: an `i18n_language=ro` read before
            // the cut counts even when a second `i18n_language` after it made a list of it.
            const languages: Lang[] =
              res.status === 431
                ? [...wire.languages, wire.prefixLanguage, 'en', ...namedLanguages(wire.path)]
                : wire.languages;
            if (typeof code === 'string' && typeof message === 'string') {
              const fits = (lang: Lang) =>
                keysOf(catalog[lang], code).some((key) => catalog[lang][key].test(message));
              if (!keysOf(catalog.en, code).length) {
                violation(`code ${code} has no message in i18n/*/errors.json`, bodyText);
              } else if (!languages.some(fits)) {
                violation(`message not in ${languages.join('/')}`, bodyText);
              } else if (!languages.includes('en') && fits('en')) {
                violation(`message under ${languages.join('/')} is English`, bodyText);
              }
            }
          }
        }
        const after = await snapshot(db, tables);
        const changed = changedTables(current, after);
        // What the server ran: a GET stays one whatever override it carries; an override no
        // route serves writes nothing.
        const effective = wire.effective ?? wire.method;
        const write = effective !== 'GET' && effective !== 'none';
        if (changed.length && (!write || res.status >= 400)) {
          violation(
            `${write ? 'failed write' : 'read'} (status ${res.status}) changed ${changed.join(', ')}`,
            bodyText,
          );
        }
        if (changed.length && write && res.status < 400) changingWrites++;
        current = after;
        if (write && res.status < 300) {
          // Created or updated records join the pools of IDs and slugs.
          try {
            const json = JSON.parse(bodyText) as { id?: unknown; slug?: unknown };
            remember(pools, collectionOf(r.target.path), json.id, json.slug);
          } catch {
            // not JSON: nothing to learn
          }
        }
      };

      // Every date and text field, list and inline list once with long or wide input, then the
      // generated requests.
      const swept = sweep(routeTargets);
      for (const r of swept) await exchange(r);
      await fc.assert(fc.asyncProperty(requestArb(weighted), exchange), {
        numRuns: RUNS,
        seed: SEED,
        endOnFailure: true,
      });

      // Failures grouped by kind (numbers and language names folded), with one example each.
      const byReason = new Map<string, typeof violations>();
      for (const v of violations) {
        const key = v.reason.replace(/\d+/g, 'N').replace(/\b(en|hu|ro)\b/g, 'L');
        byReason.set(key, [...(byReason.get(key) ?? []), v]);
      }
      const pad = (n: number) => String(n).padStart(6);
      console.log(
        [
          `fuzz: ${swept.length} swept + ${RUNS} generated requests (seed ${SEED}, ` +
            `${badAuthSent} with wrong credentials, ` +
            `${changingWrites} successful writes), ` +
            `${violations.length} failures (${byReason.size} distinct)`,
          'requests per route:',
          ...[...perRoute]
            .sort(([a], [b]) => a.localeCompare(b))
            .map(([k, n]) => `${pad(n)}  ${k}`),
          'slowest requests (server CPU ms / logged wall ms):',
          ...[...timings]
            .sort((a, b) => b.cpuMs - a.cpuMs)
            .slice(0, 5)
            .map(
              (t) =>
                `${pad(Math.round(t.cpuMs))} / ${t.wallMs === undefined ? '-' : Math.round(t.wallMs)}  ` +
                t.request.slice(0, 200),
            ),
          `statuses: ${[...statuses]
            .sort(([a], [b]) => a - b)
            .map(([s, n]) => `${s}×${n}`)
            .join(' ')}`,
          ...[...byReason].map(([key, list]) =>
            [
              `FAILURE ×${list.length}: ${key}`,
              `    routes: ${[...new Set(list.map((v) => v.route))].slice(0, 8).join(', ')}`,
              ...list
                .slice(0, process.env.FUZZ_VERBOSE ? undefined : 3)
                .map(
                  (v) =>
                    `    ${v.reason}: ${v.request}\n    answer: ${v.answer}\n    replay: ${v.replay}`,
                ),
            ].join('\n'),
          ),
        ].join('\n'),
      );
      expect([...byReason.keys()]).toEqual([]);
    },
    240_000 + RUNS * 1_000,
  );
});
