import type { RequestContext } from '../common/http/request-context.js';
import type { PayloadContributor } from './contracts.js';
import { ExtensionRegistry } from './registry.js';
import { contributePayloads, contributionsOf } from './seams.js';

const ctx = {
  language: 'en',
  restBase: 'http://site/wp-json/cal/events/v1',
  actor: { user: null },
} as unknown as RequestContext;

const note: PayloadContributor<{ note: string; secret: string }> = {
  kind: 'venue',
  fields: {
    note: { protectedValue: '', schema: { type: 'string' } },
    secret: { protectedValue: '', visibility: 'editors', schema: { type: 'string' } },
  },
  defaults: { note: 'none', secret: '' },
  contribute: (records) =>
    Promise.resolve(
      new Map(records.filter((r) => r.id === 1).map((r) => [r.id, { note: 'one', secret: 's' }])),
    ),
  jsonLd(ld, values) {
    ld.note = values.note;
  },
};

/** A payload as large as a record's, its service's own keys last. */
function payload(id: number): Record<string, unknown> {
  const fields = Array.from({ length: 40 }, (_, i) => [`field_${i}`, i] as const);
  return Object.fromEntries([
    ['id', id],
    ...fields,
    ['json_ld', {}],
    ['language', 'en'],
    ['translations', { en: id }],
  ]);
}

describe('the extension seams', () => {
  const registry = new ExtensionRegistry();
  registry.register({ name: 'probe', payload: [note] });

  it('adds the fields before the service’s own keys, as each reader may see them', async () => {
    const payloads = new Map([1, 2, 3].map((id) => [id, payload(id)]));
    await contributePayloads(
      registry,
      'venue',
      payloads,
      { locked: (id) => id === 3, editing: (id) => id === 1 },
      ctx,
    );
    const [one, two, three] = [...payloads.values()];
    expect(Object.keys(one).slice(-5)).toEqual([
      'json_ld',
      'note',
      'secret',
      'language',
      'translations',
    ]);
    expect(one).toMatchObject({ note: 'one', secret: 's', json_ld: { note: 'one' } });
    // Nothing stored: the defaults; an editors' field hidden from a reader who may not edit.
    expect(two).toMatchObject({ note: 'none', secret: '', json_ld: { note: 'none' } });
    // Locked: the protected values, and json_ld left alone.
    expect(three).toMatchObject({ note: '', secret: '', json_ld: {} });
  });

  it('has nothing to add for a kind no module contributes to', async () => {
    const reader = { locked: () => false, editing: () => false };
    expect(await contributionsOf(registry, 'event', [1], reader, ctx)).toBeUndefined();
    expect(await contributionsOf(registry, 'venue', [], reader, ctx)).toBeUndefined();
  });
});
