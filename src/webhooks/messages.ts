import type { OutboxRow } from './outbox.repository.js';
import type { SubscriptionRow, SubscriptionsRepository } from './subscriptions.repository.js';

/**
 * The body of a message (CONTRACT "Webhooks"), byte for byte what
 * `JSON.stringify({type, timestamp, data: {id, kind, language, record}})` writes, around a record
 * already serialized (`record` absent when the reader may not read it): a record heard of by
 * several subscriptions, or changed twice in one batch, is serialized once.
 */
export function bodyOf(
  entry: Pick<OutboxRow, 'recordId' | 'kind' | 'createdAt'>,
  type: string,
  language: string | null,
  recordJson: string | undefined,
): string {
  const head = JSON.stringify({
    type,
    timestamp: new Date(entry.createdAt).toISOString(),
    data: { id: entry.recordId, kind: entry.kind, language },
  });
  // `head` ends with the two closing braces of `data` and of the body.
  return recordJson === undefined ? head : `${head.slice(0, -2)},"record":${recordJson}}}`;
}

/** The subscriptions as one dispatcher pass sees them: read once, when first needed. */
export class Subscriptions {
  private rows: Promise<SubscriptionRow[]> | undefined;
  private map: Map<number, SubscriptionRow> | undefined;

  constructor(private readonly repository: Pick<SubscriptionsRepository, 'listSubscriptions'>) {}

  all(): Promise<SubscriptionRow[]> {
    this.rows ??= this.repository.listSubscriptions();
    return this.rows;
  }

  async byId(): Promise<ReadonlyMap<number, SubscriptionRow>> {
    this.map ??= new Map((await this.all()).map((s) => [s.id, s]));
    return this.map;
  }
}
