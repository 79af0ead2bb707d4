import { collecting, dependsOn, touch, touching, writeTags } from './dependencies.js';

describe('dependencies', () => {
  it('names what a write may have altered: its records, their lists and groups, what it touched', () => {
    const touched = new Set(['term:9', 'term-counts']);
    expect(new Set(writeTags([{ kind: 'event', id: 4, action: 'updated' }], touched))).toEqual(
      new Set(['event:4', 'events', 'group:events', 'term:9', 'term-counts']),
    );
    // A trashed venue leaves the events that used it; a renamed one does not.
    expect(writeTags([{ kind: 'venue', id: 2, action: 'trashed' }], new Set())).toContain('events');
    expect(writeTags([{ kind: 'venue', id: 2, action: 'updated' }], new Set())).not.toContain(
      'events',
    );
    // Categories and tags share the terms' ids, and show in what embeds them.
    expect(writeTags([{ kind: 'tag', id: 7, action: 'updated' }], new Set())).toEqual(
      expect.arrayContaining(['term:7', 'terms', 'term-shape', 'term-counts']),
    );
  });

  it("drops what shows term counts when an event's status moved", () => {
    const change = [{ kind: 'event', id: 4, action: 'updated' }];
    expect(writeTags(change, new Set(), true)).toEqual(
      expect.arrayContaining(['term-shape', 'term-counts']),
    );
    expect(writeTags(change, new Set())).not.toContain('term-shape');
  });

  it('says "anything" for a write that names nothing, or touched anything', () => {
    expect(writeTags([], new Set())).toBeUndefined();
    expect(
      writeTags([{ kind: 'event', id: 1, action: 'created' }], new Set(['*'])),
    ).toBeUndefined();
  });

  it('collects what a read depends on, nested reads adding theirs to the outer one', async () => {
    const [inner, outer] = await collecting(async () => {
      dependsOn(['events']);
      const [, nested] = await collecting(async () => {
        await Promise.resolve();
        dependsOn(['venue:3']);
      });
      return nested;
    });
    expect(inner).toEqual(['venue:3']);
    expect(new Set(outer)).toEqual(new Set(['events', 'venue:3']));
    const [, anything] = await collecting(async () => dependsOn(undefined));
    expect(anything).toBeUndefined();
  });

  it('collects what a write touches, and nothing outside one', async () => {
    touch('term:1');
    const into = new Set<string>();
    await touching(into, async () => {
      await Promise.resolve();
      touch('term:2', 'term-counts');
    });
    expect(into).toEqual(new Set(['term:2', 'term-counts']));
  });
});
