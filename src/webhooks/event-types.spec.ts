import { EVENT_TYPES } from '../docs/webhook-event-types.js';
import { eventTypeOf, isEventType, isPublicChange, wants } from './event-types.js';

describe('webhook event types', () => {
  it('names every kind × action and the wildcard', () => {
    expect(EVENT_TYPES).toHaveLength(26);
    expect(isEventType('venue.trashed')).toBe(true);
    expect(isEventType('event.purged')).toBe(false);
    expect(isEventType(3)).toBe(false);
  });

  it('hears what a subscription names, or everything with *', () => {
    expect(wants(['event.created'], 'event.created')).toBe(true);
    expect(wants(['event.created'], 'event.updated')).toBe(false);
    expect(wants(['*'], 'tag.deleted')).toBe(true);
  });

  it('calls an update into publish a publication, and nothing else', () => {
    const base = { kind: 'event', action: 'updated' } as const;
    expect(eventTypeOf({ ...base, status: 'publish', previousStatus: 'draft' })).toBe(
      'event.published',
    );
    expect(eventTypeOf({ ...base, status: 'publish', previousStatus: 'publish' })).toBe(
      'event.updated',
    );
    expect(eventTypeOf({ ...base, status: 'publish', previousStatus: null })).toBe('event.updated');
    expect(
      eventTypeOf({ kind: 'event', action: 'created', status: 'publish', previousStatus: null }),
    ).toBe('event.created');
  });

  it('tells public subscriptions only of what was or is public', () => {
    const post = { kind: 'venue', action: 'updated' } as const;
    expect(isPublicChange({ ...post, status: 'draft', previousStatus: 'draft' })).toBe(false);
    expect(isPublicChange({ ...post, status: 'publish', previousStatus: 'draft' })).toBe(true);
    expect(isPublicChange({ ...post, status: 'draft', previousStatus: 'publish' })).toBe(true);
    expect(
      isPublicChange({ kind: 'event', action: 'deleted', status: null, previousStatus: 'trash' }),
    ).toBe(false);
    expect(
      isPublicChange({ kind: 'tag', action: 'deleted', status: null, previousStatus: null }),
    ).toBe(true);
  });
});
