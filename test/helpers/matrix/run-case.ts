/**
 * One case of the authorization matrix sent and its answer compared with `expected()`
 * (test/helpers/authorization-matrix.ts): the request it makes, by its own method or by override.
 */
import type request from 'supertest';
import { expected } from './expected.js';
import { checkList } from './list.js';
import { KIND, type Case, type Collection, type Expected, type Via } from './model.js';
import { prepareRecord, prepareTerm, type Prepared } from './prepare.js';
import { loginOf, MX_LINK, TABLE } from './requests.js';
import type { MatrixWorld } from './world.js';

/** What went wrong with a case, as the report's "got". */
export type Report = (c: Case, exp: Expected, got: string, via?: Via) => void;

/** The request of a case, by its own method or as a client behind a host that blocks it. */
function sendCase(w: MatrixWorld, c: Case, via: Via, p: Prepared, n: number) {
  const login = loginOf(c.role);
  let body = p.body;
  let call: request.Test;
  if (via === 'direct') call = w.send(c.method, p.path, login).query(p.query);
  else if (c.method === 'GET') {
    // Never honoured on a GET: this must stay a read.
    call = w
      .send('GET', p.path, login)
      .query({ ...p.query, _method: 'DELETE' })
      .set('X-HTTP-Method-Override', 'DELETE');
  } else {
    call = w.send('POST', p.path, login);
    if (n % 2) call = call.query(p.query).set('X-HTTP-Method-Override', c.method);
    else {
      // The parameters in the query string, as a form-less client sends them.
      const inQuery = body && Object.values(body).every((v) => typeof v === 'string');
      call = call.query({ ...p.query, ...(inQuery ? body : {}), _method: c.method });
      if (inQuery) body = undefined;
    }
  }
  return body ? call.send(body) : call;
}

/** How an answer differs from the expected one. */
function problemsOf(w: MatrixWorld, c: Case, exp: Expected, res: request.Response, via: Via) {
  const problems: string[] = [];
  if (res.status !== exp.status) problems.push(`${res.status}`);
  if (exp.code && res.body?.code !== exp.code) problems.push(`code=${res.body?.code}`);
  if (exp.stored && res.body?.status !== exp.stored) problems.push(`status=${res.body?.status}`);
  if (exp.authorLogin && res.status < 300) {
    if (res.body?.author !== String(w.accounts[exp.authorLogin].id))
      problems.push(`author=${res.body?.author}`);
  }
  if (exp.author && res.status < 300) {
    const wanted =
      exp.author === 'self'
        ? w.accounts[loginOf(c.role)!].id
        : w.accounts[c.role === 'administrator' ? 'editor' : 'administrator'].id;
    if (res.body?.author !== String(wanted)) problems.push(`author=${res.body?.author}`);
  }
  if (exp.redacted !== undefined && res.status === 200) {
    const kind = KIND[c.route.split('/')[1] as 'events'];
    const redacted = kind === 'event' ? res.body.description === '' : Array.isArray(res.body[kind]);
    if (redacted !== exp.redacted) problems.push(`redacted=${redacted}`);
  }
  // An event write that succeeded saved the module's fields it carried (Virtual Events), and
  // answers them as the reader may see them (a protected event's redacted: null, "", "").
  const recordKind = KIND[c.route.split('/')[1] as 'events'];
  const writes = c.method !== 'GET' && c.method !== 'DELETE' && c.state.type !== 'term-list';
  if (
    recordKind === 'event' &&
    writes &&
    res.status < 300 &&
    res.body &&
    'is_virtual' in res.body
  ) {
    const hidden = res.body.description === '';
    const update = c.state.type !== 'create';
    const want = hidden
      ? { is_virtual: null, virtual_url: '', virtual_video_source: '' }
      : {
          is_virtual: true,
          virtual_url: MX_LINK,
          virtual_video_source: update ? 'zoom' : 'video',
        };
    const got = {
      is_virtual: res.body.is_virtual,
      virtual_url: res.body.virtual_url,
      virtual_video_source: res.body.virtual_video_source,
    };
    if (JSON.stringify(got) !== JSON.stringify(want))
      problems.push(`virtual=${JSON.stringify(got)}`);
  } else if (recordKind === 'event' && writes && res.status < 300) problems.push('virtual=missing');
  // A read answers the record as it is: an honoured override would have trashed it.
  if (via === 'override' && c.method === 'GET' && res.body?.status === 'trash')
    problems.push('status=trash');
  return problems;
}

/** Sends case `c` (the `n`th) and reports how its answer differs from CONTRACT §2's. */
export async function runCase(w: MatrixWorld, c: Case, via: Via, n: number, report: Report) {
  const exp = expected(c.route, c.method, c.role, c.state);
  const collection = c.route.split('/')[1] as Collection;
  const name = `mxfresh-${n}`;
  if (c.state.type === 'list' || c.state.type === 'term-list') {
    const { query } =
      collection === 'categories' || collection === 'tags'
        ? await prepareTerm(w, c, name)
        : { query: {} };
    return checkList(w, c, exp, collection, query, report);
  }
  const p =
    collection === 'categories' || collection === 'tags'
      ? await prepareTerm(w, c, name)
      : await prepareRecord(w, c, exp, name);
  const res = await sendCase(w, c, via, p, n);
  const problems = problemsOf(w, c, exp, res, via);
  if (problems.length) {
    report(c, exp, `${problems.join(' ')} ${JSON.stringify(res.body).slice(0, 160)}`, via);
  }
  const { target, shared } = p;
  if (!shared || !target || res.status >= 300) return;
  // A write that should have failed changed a shared record: put its status back.
  if (c.method !== 'GET' && exp.status >= 300) {
    await w.ds.query(`UPDATE ${TABLE[target.kind]} SET status = ? WHERE id = ?`, [
      target.status,
      target.id,
    ]);
  }
  // An update that named an author (rightly or not) gives the shared record back to its owner.
  if (c.state.type === 'record' && c.state.reassign) {
    await w.ds.query(`UPDATE ${TABLE[target.kind]} SET author_id = ? WHERE id = ?`, [
      w.accounts[target.ownerLogin].id,
      target.id,
    ]);
  }
}
