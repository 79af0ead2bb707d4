/** A list case of the authorization matrix: which of the seeded records the caller is shown. */
import type { Case, Collection, Expected, Listed } from './model.js';
import { loginOf } from './requests.js';
import type { Report } from './run-case.js';
import { KIND } from './model.js';
import type { MatrixWorld } from './world.js';

/** The seeded records (or terms) a list's search selects, with how a list sees each. */
function catalogueOf(
  w: MatrixWorld,
  c: Case,
  collection: Collection,
  query: Record<string, string>,
) {
  const login = loginOf(c.role);
  const catalogue = new Map<number, { listed: Listed; label: string }>();
  if (collection === 'categories' || collection === 'tags') {
    for (const use of ['published-event', 'draft-event', 'unused'] as const) {
      catalogue.set(w.terms[collection][use], { listed: { use }, label: use });
    }
    return catalogue;
  }
  const kind = KIND[collection];
  Object.assign(query, { search: 'mxseed', per_page: '50' });
  if (c.state.type === 'list' && c.state.status !== undefined) query.status = c.state.status;
  for (const seed of w.seeds.values()) {
    if (seed.kind !== kind) continue;
    catalogue.set(seed.id, {
      listed: { condition: seed.condition, own: seed.ownerLogin === login },
      label: `${seed.condition}/${seed.ownerLogin}`,
    });
  }
  return catalogue;
}

/** All pages of a list, restricted to the seeded records the search selects. */
export async function checkList(
  w: MatrixWorld,
  c: Case,
  exp: Expected,
  collection: Collection,
  query: Record<string, string>,
  report: Report,
) {
  const catalogue = catalogueOf(w, c, collection, query);
  const got = new Set<number>();
  let total: number | undefined;
  for (let page = 1; ; page++) {
    const res = await w
      .send('GET', `/${collection}`, loginOf(c.role))
      .query({ ...query, page: String(page) });
    if (res.status !== exp.status || (exp.code && res.body?.code !== exp.code)) {
      report(c, exp, `${res.status} ${JSON.stringify(res.body).slice(0, 160)}`);
      return;
    }
    if (res.status !== 200) return;
    total = res.body.total as number;
    for (const item of res.body[collection] as Array<{ id: number }>) got.add(item.id);
    if (page >= (res.body.total_pages as number)) break;
  }
  const want = new Set([...catalogue].filter(([, v]) => exp.sees!(v.listed)).map(([id]) => id));
  const missing = [...want].filter((id) => !got.has(id));
  const extra = [...got].filter((id) => !want.has(id));
  const label = (id: number) => catalogue.get(id)?.label ?? `#${id}`;
  if (missing.length || extra.length || total !== want.size) {
    report(
      c,
      exp,
      `total=${total} (want ${want.size}); missing [${missing.map(label).join(', ')}]; extra [${extra.map(label).join(', ')}]`,
    );
  }
}
