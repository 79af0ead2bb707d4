/**
 * The e2e tests venues and organizers share: both are served by one implementation (src/linked/),
 * so every behaviour that is not about a kind's own fields is tested here, once, for each kind
 * (test/linked/venues.e2e-spec.ts and test/linked/organizers.e2e-spec.ts call `describeLinkedRecords` and keep
 * only their own fields' tests). The suite starts the app; the kind's file reads it from the
 * returned handle in its own tests, which run after these.
 *
 * The lists' tests own the Romanian records (their counts see only those) and the no-N+1 test
 * the Hungarian ones (it needs ten pages of them): the kinds' own tests write English records.
 */
import { DataSource } from 'typeorm';
import { createRoleUsers } from './auth.js';
import { closeApp, createTestApp } from './create-test-app.js';
import { suiteScope, type LinkedKindSuite, type LinkedSuiteHandle } from './linked-suite/scope.js';
import { describeCreates } from './linked-suite/creates.js';
import { describeDuplicates } from './linked-suite/duplicates.js';
import { describeReads } from './linked-suite/reads.js';
import { describeProtected } from './linked-suite/protected.js';
import { describeUpdates } from './linked-suite/updates.js';
import { describeDeletes } from './linked-suite/deletes.js';
import { describeLists } from './linked-suite/lists.js';
import { describeQueries } from './linked-suite/queries.js';
import { describeService } from './linked-suite/service.js';
import { describeIndex } from './linked-suite/index.js';

export { API, type LinkedKindSuite, type LinkedSuiteHandle } from './linked-suite/scope.js';

export function describeLinkedRecords(k: LinkedKindSuite): LinkedSuiteHandle {
  const s = suiteScope(k);
  const { t } = s;
  beforeAll(async () => {
    t.app = await createTestApp();
    t.ds = t.app.get(DataSource);
    t.users = await createRoleUsers(t.app);
  });
  afterAll(() => closeApp(t.app));

  describeCreates(s);
  describeDuplicates(s);
  describeReads(s);
  describeProtected(s);
  describeUpdates(s);
  describeDeletes(s);
  describeLists(s);
  describeQueries(s);
  describeService(s);
  describeIndex(s);
  return t;
}
