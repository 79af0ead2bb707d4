import { randomUUID } from 'node:crypto';
import { nowUtcSql } from '../database/columns.js';
import type { RecordKind } from '../common/records/record-kinds.js';
import { eventTypeOf, isPublicChange, wants } from './event-types.js';
import { bodyOf, type Subscriptions } from './messages.js';
import type { NewBody, NewDelivery, OutboxRepository, OutboxRow } from './outbox.repository.js';
import type { Audience, RecordPayloads } from './record-payloads.js';
import type { ScheduleRepository } from './schedule.repository.js';
import type { SubscriptionRow } from './subscriptions.repository.js';

/** Outbox entries fanned out per batch, and batches per pass (the rest waits for the next). */
const FANOUT_BATCH = 100;
const FANOUT_BATCHES = 10;
/** How long the fan-out lease lasts when its holder dies mid-pass. */
const FANOUT_LEASE_MS = 30_000;

/**
 * The dispatcher's fan-out (one process at a time, by the `fanout` lease, database/leases.ts):
 * scheduled posts gone live become outbox entries, and each outbox entry becomes one delivery per
 * subscription that wants it (event type, language, public or private). A batch's records are
 * rendered together, one presenter read per kind, audience and language, whatever the number of
 * records, entries and subscriptions; the entries are marked dispatched in the same transaction
 * as their deliveries are written, only if no one else marked them first.
 */
export class FanOut {
  /**
   * Whether posts may have gone live unannounced: at the start (they may have while no process
   * ran), and whenever the clock says so (wentLive).
   */
  private liveDue = true;

  constructor(
    private readonly outbox: OutboxRepository,
    private readonly schedule: ScheduleRepository,
    private readonly payloads: RecordPayloads,
    /** This process, as it holds the fan-out lease. */
    private readonly owner: string,
    /** True once the process stops: no further batch starts. */
    private readonly stopped: () => boolean,
  ) {}

  /** The clock (database/scheduled-publications.ts) says posts went live: the next pass looks. */
  wentLive(): void {
    this.liveDue = true;
  }

  /**
   * Scheduled posts whose date has passed become `published` outbox entries: nothing is written
   * when a post goes live by the clock, so the rows the writes left in `webhook_schedule` say
   * which. Each row is taken by a conditional DELETE in the transaction that adds the entry, so
   * one process announces it, whichever of several passes first. Only when the clock spoke (or
   * at the start): the commits that wake most passes move no post live.
   */
  async announceScheduled(): Promise<void> {
    if (!this.liveDue) return;
    this.liveDue = false;
    try {
      for (let batch = 0; batch < FANOUT_BATCHES && !this.stopped(); batch++) {
        const due = await this.schedule.dueScheduled(nowUtcSql(), FANOUT_BATCH);
        if (!due.length) return;
        await this.schedule.announceScheduled(due);
        if (due.length < FANOUT_BATCH) return;
      }
      // More are due than a pass takes: the next pass looks again.
      this.liveDue = true;
    } catch (error) {
      // The database away: the next pass tries again.
      this.liveDue = true;
      throw error;
    }
  }

  /**
   * Turns up to FANOUT_BATCHES batches of outbox entries into deliveries, under the fan-out lease
   * (renewed per batch, released at the end). `worked`: deliveries were written; `more`: a full
   * batch was the last; `found`: there were entries.
   */
  async run(
    subscriptions: Subscriptions,
  ): Promise<{ worked: boolean; more: boolean; found: boolean }> {
    let leased = false;
    let worked = false;
    let found = false;
    try {
      for (let batch = 0; batch < FANOUT_BATCHES && !this.stopped(); batch++) {
        // A look first: most passes of an idle process find nothing, and need no lease for it.
        // The entries read before the lease was taken may be another holder's work of the
        // moment: dispatch() then writes nothing (it marks only what nobody marked), and the
        // next batch reads them again under the lease.
        const entries = await this.outbox.pendingOutbox(FANOUT_BATCH);
        if (!entries.length) return { worked, more: false, found };
        found = true;
        const now = Date.now();
        if (!(await this.outbox.leases.take('fanout', this.owner, now, now + FANOUT_LEASE_MS))) {
          return { worked, more: false, found };
        }
        leased = true;
        const active = (await subscriptions.all()).filter((s) => s.active);
        const { bodies, deliveries } = await this.deliveriesOf(entries, active);
        const written = await this.outbox.dispatch(
          entries.map((e) => e.id),
          bodies,
          deliveries,
          Date.now(),
        );
        worked ||= written && deliveries.length > 0;
        if (entries.length < FANOUT_BATCH) return { worked, more: false, found };
      }
      return { worked, more: leased, found };
    } finally {
      if (leased) await this.outbox.leases.release('fanout', this.owner);
    }
  }

  private async deliveriesOf(
    entries: OutboxRow[],
    subscriptions: SubscriptionRow[],
  ): Promise<{ bodies: NewBody[]; deliveries: NewDelivery[] }> {
    const bodies: NewBody[] = [];
    const deliveries: NewDelivery[] = [];
    if (!subscriptions.length) return { bodies, deliveries };
    const languages = await this.outbox.languagesOf(entries.filter((e) => e.language === null));
    // Who hears of each entry, and as which reader: then the records each reader needs, rendered
    // per kind, language and reader in one read of the kind's presenter (whatever the number
    // of records, of their entries in the batch and of the subscriptions hearing of them).
    const plans = entries.map((entry) => {
      const type = eventTypeOf(entry);
      const language = entry.language ?? languages.get(`${entry.kind}:${entry.recordId}`) ?? null;
      const isPublic = isPublicChange(entry);
      const hearers: Array<{ subscription: SubscriptionRow; audience: Audience }> = [];
      for (const subscription of subscriptions) {
        if (!wants(subscription.events, type)) continue;
        if (subscription.language && subscription.language !== language) continue;
        const audience: Audience = subscription.includePrivate ? 'private' : 'public';
        if (audience === 'public' && !isPublic) continue;
        hearers.push({ subscription, audience });
      }
      return { entry, type, language, hearers };
    });
    const wanted = new Map<
      string,
      { kind: RecordKind; language: string | null; audience: Audience; ids: Set<number> }
    >();
    for (const { entry, language, hearers } of plans) {
      if (entry.action === 'deleted') continue;
      for (const { audience } of hearers) {
        const group = `${entry.kind}:${language}:${audience}`;
        let needs = wanted.get(group);
        if (!needs) {
          needs = { kind: entry.kind, language, audience, ids: new Set() };
          wanted.set(group, needs);
        }
        needs.ids.add(entry.recordId);
      }
    }
    const records = new Map<string, ReadonlyMap<number, string>>();
    for (const [group, { kind, language, audience, ids }] of wanted) {
      records.set(group, await this.payloads.renderJson(kind, [...ids], language, audience));
    }
    // One body per entry and reader, whatever the number of subscriptions hearing of it as that
    // reader: each delivery names its body instead of carrying a copy.
    for (const { entry, type, language, hearers } of plans) {
      const written = new Set<Audience>();
      for (const { subscription, audience } of hearers) {
        if (!written.has(audience)) {
          written.add(audience);
          const record =
            entry.action === 'deleted'
              ? undefined
              : records.get(`${entry.kind}:${language}:${audience}`)?.get(entry.recordId);
          bodies.push({
            outboxId: entry.id,
            reader: audience,
            body: bodyOf(entry, type, language, record),
          });
        }
        deliveries.push({
          subscriptionId: subscription.id,
          outboxId: entry.id,
          reader: audience,
          messageId: `msg_${randomUUID().replaceAll('-', '')}`,
          recordKey: `${entry.kind}:${entry.recordId}`,
          type,
          traceparent: entry.traceparent,
        });
      }
    }
    return { bodies, deliveries };
  }
}
