/**
 * The authorization matrix's world: an app with two users of each role, and the records and terms
 * the cases of one part address (test/helpers/authorization-matrix.ts), made through the API.
 */
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { createRoleUsers, logIn, type Session } from '../auth.js';
import { createTestApp } from '../create-test-app.js';
import { OWNER_LOGINS, READ_CONDITIONS } from './cases.js';
import {
  API,
  CONCURRENCY,
  createBody,
  inDays,
  ok,
  PASSWORD,
  roleOf,
  pool,
  seedKey,
  TABLE,
} from './requests.js';
import {
  KIND,
  PUBLISHERS,
  type Accounts,
  type Collection,
  type Condition,
  type Kind,
  type Method,
  type Seed,
  type TermUse,
} from './model.js';

/**
 * `transport: 'session'` sends every request as the console does (CONTRACT §2): a session cookie
 * with its `X-WP-Nonce` for each role, and for `anonymous` an administrator's session cookie
 * without the nonce, which must count for nothing.
 */
export class MatrixWorld {
  app!: NestExpressApplication;
  ds!: DataSource;
  readonly accounts: Accounts = {};
  readonly seeds = new Map<string, Seed>();
  readonly terms: Record<'categories' | 'tags', Record<TermUse | 'gone', number>> = {
    categories: {} as Record<TermUse | 'gone', number>,
    tags: {} as Record<TermUse | 'gone', number>,
  };
  private baseUrl = '';
  private readonly sessions: Record<string, Session> = {};

  constructor(private readonly transport: 'basic' | 'session') {}

  send(method: Method, path: string, login?: string) {
    const call = request(this.baseUrl)[method.toLowerCase() as 'get'](`${API}${path}`);
    if (this.transport === 'session') {
      const session = this.sessions[login ?? 'administrator'];
      const withCookie = call.set('Cookie', session.cookie);
      return login ? withCookie.set('X-WP-Nonce', session.nonce) : withCookie;
    }
    return login ? call.set('Authorization', this.accounts[login].header) : call;
  }

  /** The app, its users (and their sessions), then the records of `collections`' cases. */
  async start(collections: readonly Collection[]): Promise<void> {
    this.app = await createTestApp();
    await this.app.listen(0, '127.0.0.1');
    this.baseUrl = await this.app.getUrl();
    this.ds = this.app.get(DataSource);
    for (const suffix of ['', '2']) {
      const users = await createRoleUsers(this.app, suffix);
      for (const credentials of Object.values(users))
        this.accounts[credentials.login] = credentials;
    }
    if (this.transport === 'session') {
      for (const login of Object.keys(this.accounts)) {
        this.sessions[login] = await logIn(this.app, this.baseUrl, login);
      }
    }
    const kinds = new Set(
      collections.flatMap((c) => (c === 'categories' || c === 'tags' ? [] : [KIND[c]])),
    );
    const jobs: Array<() => Promise<void>> = [];
    for (const kind of ['event', 'venue', 'organizer'] as const) {
      for (const condition of READ_CONDITIONS[kind]) {
        for (const login of OWNER_LOGINS) {
          // This part's kinds, and the other kind's record that `foreign` cases address.
          const foreign = kinds.has('event') ? 'venue' : 'event';
          const needed =
            kinds.has(kind) ||
            (kinds.size > 0 &&
              kind === foreign &&
              condition === 'publish' &&
              login === 'administrator');
          if (!needed) continue;
          jobs.push(async () => {
            const name = `mxseed-${kind}-${condition}-${login}`;
            const seed = await this.makeRecord(kind, condition, login, name);
            this.seeds.set(seedKey(kind, condition, login), seed);
          });
        }
      }
    }
    for (const collection of ['categories', 'tags'] as const) {
      jobs.push(() => this.makeTerms(collection));
    }
    await pool(jobs, CONCURRENCY, (job) => job());
    for (const [status, use] of [
      ['publish', 'published-event'],
      ['draft', 'draft-event'],
    ] as const) {
      const terms = { categories: [this.terms.categories[use]], tags: [this.terms.tags[use]] };
      await ok(
        await this.send('POST', '/events', 'editor').send(
          createBody('event', `mxterms-${use}`, { status, ...terms }),
        ),
        `event using ${use} terms`,
      );
    }
  }

  /** Terms: one used by a published event, one by a draft event only, one unused, one deleted. */
  private async makeTerms(collection: 'categories' | 'tags') {
    for (const use of ['published-event', 'draft-event', 'unused', 'gone'] as const) {
      const body = await ok(
        await this.send('POST', `/${collection}`, 'editor').send({ name: `mxseedterm ${use}` }),
        `create ${collection} ${use}`,
      );
      this.terms[collection][use] = body.id as number;
    }
    await ok(
      await this.send('DELETE', `/${collection}/${this.terms[collection].gone}`, 'editor'),
      `delete ${collection}`,
    );
  }

  /**
   * A record of `kind` in `condition` owned by `login`, named `name` (also its slug), made as its
   * owner when the owner's role can produce it, else as an editor with `author` set.
   */
  async makeRecord(kind: Kind, condition: Condition, login: string, name: string): Promise<Seed> {
    const role = roleOf(login);
    const selfMade =
      PUBLISHERS.includes(role) ||
      (role === 'contributor' && ['draft', 'pending', 'trash'].includes(condition));
    const creator = selfMade ? login : 'editor';
    const fields: Record<string, unknown> = selfMade ? {} : { author: this.accounts[login].id };
    if (condition === 'protected') Object.assign(fields, { status: 'publish', password: PASSWORD });
    else if (condition === 'hidden')
      Object.assign(fields, { status: 'publish', hide_from_listings: true });
    else if (condition === 'future' || condition === 'future-past') {
      Object.assign(fields, { status: 'future', date: inDays(30) });
    } else if (condition === 'trash') {
      fields.status = role === 'contributor' ? 'draft' : 'publish';
    } else fields.status = condition;

    const collection = `/${TABLE[kind]}`;
    const body = await ok(
      await this.send('POST', collection, creator).send(createBody(kind, name, fields)),
      `create ${kind} ${name}`,
    );
    const id = body.id as number;
    let status = body.status as string;
    if (status !== fields.status) throw new Error(`setup: ${name} is ${status}`);
    if (condition === 'future-past') {
      // The API cannot schedule in the past (it publishes instead): move the date back.
      await this.ds.query(`UPDATE ${TABLE[kind]} SET \`date\` = ?, \`date_utc\` = ? WHERE id = ?`, [
        inDays(-1),
        inDays(-1),
        id,
      ]);
    }
    if (body.slug !== name) {
      // Drafts and pending venues/organizers get their slug on publication (§7.1.8).
      await this.ds.query(`UPDATE ${TABLE[kind]} SET slug = ? WHERE id = ?`, [name, id]);
    }
    if (condition === 'trash') {
      await ok(await this.send('DELETE', `${collection}/${id}`, creator), `trash ${name}`);
      status = 'trash';
    }
    return { kind, condition, ownerLogin: login, id, slug: name, status };
  }
}
