import { Webhook } from 'standardwebhooks';
import { bodyOf, Subscriptions } from './messages.js';
import { signedHeaders } from './sender.js';
import type { SubscriptionRow } from './subscriptions.repository.js';

describe('webhook messages', () => {
  const entry = { recordId: 42, kind: 'event' as const, createdAt: Date.UTC(2031, 4, 1, 10) };

  it('are the body JSON.stringify writes, around a record serialized once', () => {
    const record = { id: 42, title: 'Élő "koncert"', tags: [{ id: 1 }], cost: null };
    for (const language of ['hu', null]) {
      expect(bodyOf(entry, 'event.updated', language, JSON.stringify(record))).toBe(
        JSON.stringify({
          type: 'event.updated',
          timestamp: '2031-05-01T10:00:00.000Z',
          data: { id: 42, kind: 'event', language, record },
        }),
      );
      expect(bodyOf(entry, 'event.deleted', language, undefined)).toBe(
        JSON.stringify({
          type: 'event.deleted',
          timestamp: '2031-05-01T10:00:00.000Z',
          data: { id: 42, kind: 'event', language },
        }),
      );
    }
  });

  it('are signed as the reference library signs and verifies them, by every secret given', () => {
    const current = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const previous = 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD';
    const body = bodyOf(entry, 'event.created', 'en', '{"id":42}');
    const at = new Date(Date.UTC(2031, 4, 1, 10, 0, 5));
    const headers = signedHeaders({ id: 'msg_1', body, secrets: [current, previous] }, at);
    expect(headers).toEqual({
      'webhook-id': 'msg_1',
      'webhook-timestamp': String(at.getTime() / 1000),
      'webhook-signature': [current, previous]
        .map((secret) => new Webhook(secret).sign('msg_1', at, body))
        .join(' '),
    });
    // The library verifies against the time now: sign now for that.
    const now = signedHeaders({ id: 'msg_2', body, secrets: [current] }, new Date());
    expect(new Webhook(current).verify(body, now)).toEqual(JSON.parse(body));
    expect(() => new Webhook(previous).verify(body, now)).toThrow('No matching signature found');
  });

  it('read the subscriptions once per pass', async () => {
    let reads = 0;
    const rows = [{ id: 3 }, { id: 5 }] as SubscriptionRow[];
    const subscriptions = new Subscriptions({
      listSubscriptions: () => {
        reads++;
        return Promise.resolve(rows);
      },
    });
    expect(await subscriptions.all()).toBe(rows);
    expect([...(await subscriptions.byId()).keys()]).toEqual([3, 5]);
    expect(await subscriptions.all()).toBe(rows);
    expect(reads).toBe(1);
  });
});
