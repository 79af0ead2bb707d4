/**
 * Authorization matrix (CONTRACT §2's capabilities by role), walked in parts (one test file per part
 * and way of sending, so that the test workers share it out:
 * test/auth/authorization-matrix-*.e2e-spec.ts); together they walk every case. The table is
 * matrix/expected.ts, the cases matrix/cases.ts, the seeded app matrix/world.ts, a case's request
 * and checks matrix/run-case.ts and matrix/list.ts.
 *
 * Walks every route × method × role × record state of the five resources and compares each
 * answer with `expected()`, an explicit encoding of the roles table of CONTRACT §2 written here,
 * independently of the service's own policy code (src/auth/post-policy.ts is never imported):
 * details from BEHAVIOR §8.2 (matrix), §6.1/§6.2 (single reads), §7.2-§7.6 (writes), §5.2.5
 * (list visibility), §4.11 (password protection), §1.1 (validation before permission).
 *
 * Records are built in beforeAll through the API, as their author where the author's role can
 * produce the state, else as an editor with `author` set; what the API cannot produce directly
 * is set in the database (a `future` record whose date has passed; the slug of a draft venue or
 * organizer, which WordPress assigns only on publication). Update cases send one harmless field
 * (`description`), so a successful update leaves the record in its state; every DELETE that is
 * expected to succeed gets a fresh record; an unexpected success on a shared record is reported
 * and the record's status restored, so no case depends on the order the cases run in.
 *
 * Decisions where CONTRACT and BEHAVIOR leave a case open (what the CONTRACT table implies):
 *  D-a  A trashed record counts as unpublished for its contributor (CONTRACT §2 "own unpublished
 *       records"; WordPress checks a trashed post against its pre-trash status, and the only way a
 *       contributor's record reaches the trash through the API is from draft/pending): the
 *       contributor may update it, may read it (venues/organizers, BEHAVIOR §6.2 "readable by
 *       callers who may edit them"), and a second DELETE answers 410 like everyone's (CONTRACT §3).
 *  D-b  Naming another user as `author` (CONTRACT §2 "any `author`" / "only as themselves", as
 *       WordPress's `edit_others_posts`): editors and administrators may, on create and update;
 *       authors and contributors get 403 `rest_cannot_create` (create) or `rest_cannot_edit`
 *       (update), after the general permission check (so a record they may not edit at all is
 *       still `rest_forbidden`). Naming themselves is always allowed.
 *  D-c  GET /events/by-slug/{slug} of an event the caller may not read: 403 event-not-accessible
 *       (the plugin's answer; BEHAVIOR §6.1 accepts 400 too, neither leaks the record).
 *  D-d  DELETE (and update) of a password-protected record without its password: 200 for whoever
 *       may edit it, the record redacted in the answer (BEHAVIOR §4.11, §7.3: `password` only
 *       unlocks the response); the 403 `event-password-protected` is the answer of event reads
 *       only (CONTRACT §6 "the plugin's ... answer").
 *  D-e  A contributor may not update or delete an own `future` record (WordPress treats scheduled
 *       like published; BEHAVIOR §8.2 lists draft, pending and own private as unpublished).
 *  D-f  An event route given the id of a venue or organizer answers 400 rest-invalid-event-id to
 *       every caller, writes included (BEHAVIOR §1.6, CONTRACT §6: the id is checked like a
 *       parameter, before permissions, as venue/organizer routes do; the plugin checks the
 *       caller's rights on that other post first, so anonymous callers would get 401 there).
 */
import { closeApp } from './create-test-app.js';
import {
  alsoByOverride,
  buildCases,
  collectionOf,
  describeState,
  MATRIX_PARTS,
} from './matrix/cases.js';
import type { MatrixPart } from './matrix/cases.js';
import type { Case, Collection, Expected, Via } from './matrix/model.js';
import { CONCURRENCY, pool } from './matrix/requests.js';
import { targetOf } from './matrix/prepare.js';
import { runCase } from './matrix/run-case.js';
import { MatrixWorld } from './matrix/world.js';

export { casesByPart } from './matrix/cases.js';

const expectation = (exp: Expected) =>
  [
    `${exp.status}`,
    exp.code,
    exp.stored && `status=${exp.stored}`,
    exp.author && `author=${exp.author}`,
    exp.authorLogin && `author=${exp.authorLogin}`,
    exp.redacted !== undefined && `redacted=${exp.redacted}`,
  ]
    .filter(Boolean)
    .join(' ');

/**
 * The matrix's cases of one part, against an app seeded with the records that part addresses,
 * sent `via` their own method or by method override (the cases `alsoByOverride` names).
 * `transport: 'session'` sends every case as the console does (matrix/world.ts); the expected
 * answers are the same.
 */
export function describeAuthorizationMatrix(
  part: MatrixPart,
  { transport = 'basic', via = 'direct' }: { transport?: 'basic' | 'session'; via?: Via } = {},
): void {
  describe(`authorization matrix: ${part} ${via} via ${transport} (e2e)`, () => {
    const collections: readonly Collection[] = MATRIX_PARTS[part];
    const world = new MatrixWorld(transport);

    beforeAll(() => world.start(collections), 120_000);
    afterAll(() => closeApp(world.app));

    it('answers every route × method × role × state as CONTRACT §2 says', async () => {
      // The override pass is a spec file of its own (…-override.e2e-spec.ts), run by another
      // worker at the same time: the events part took 305 s with both passes in one file.
      const cases = buildCases().filter(
        (c) =>
          collections.includes(collectionOf(c)) &&
          (via === 'direct' || alsoByOverride(c.method, c.route, c.state)),
      );
      const lines: string[] = [];
      const report = (c: Case, exp: Expected, got: string, how: Via = 'direct') =>
        lines.push(
          `${c.method}${how === 'override' ? ' (by override)' : ''} ${c.route} as ${c.role} [${describeState(c.state)}]: expected ${expectation(exp)}, got ${got}`,
        );
      // Cases that address one shared record run one after the other (a wrong success is
      // restored before the next case); the groups run concurrently.
      const groups = new Map<string, Case[]>();
      cases.forEach((c, i) => {
        const target = targetOf(world, c);
        const key = target ? `seed:${target.id}` : `case:${i}`;
        groups.set(key, [...(groups.get(key) ?? []), c]);
      });
      let serial = 0;
      await pool([...groups.values()], CONCURRENCY, async (group) => {
        for (const c of group) await runCase(world, c, via, ++serial, report);
      });

      const summary = `authorization matrix (${part}, ${via}): ${cases.length} cases, ${lines.length} violations`;
      console.log(summary);
      if (lines.length) throw new Error(`${summary}\n${lines.join('\n')}`);
    }, 600_000);
  });
}
