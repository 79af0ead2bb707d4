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

  it('takes stored values from the rows read with the records, else reads them once', async () => {
    const stored = {
      table: 'probe_notes',
      key: 'venue_id',
      columns: ['note'],
      values: (row: Readonly<Record<string, unknown>> | undefined) => ({
        note: typeof row?.note === 'string' ? row.note : 'none',
      }),
    };
    const reads: number[][] = [];
    const store = {
      rowsOf: (_table: unknown, ids: readonly number[]) => {
        reads.push([...ids]);
        return Promise.resolve(new Map([[2, { note: 'read apart' }]]));
      },
    };
    const withStore = new ExtensionRegistry(store as never);
    withStore.register({
      name: 'stored',
      payload: [
        {
          kind: 'venue',
          fields: { note: { protectedValue: '', schema: { type: 'string' } } },
          defaults: { note: 'none' },
          stored,
        },
      ],
    });
    expect(withStore.storedTables('venue')).toEqual([stored]);
    const reader = { locked: () => false, editing: () => false };
    const joined = new Map([[stored, new Map([[1, { note: 'joined' }]])]]);
    const fromRows = await contributionsOf(withStore, 'venue', [1, 2], reader, ctx, joined);
    expect([fromRows!.fieldsOf(1), fromRows!.fieldsOf(2)]).toEqual([
      { note: 'joined' },
      { note: 'none' },
    ]);
    expect(reads).toEqual([]);
    const apart = await contributionsOf(withStore, 'venue', [1, 2], reader, ctx);
    expect([apart!.fieldsOf(1), apart!.fieldsOf(2)]).toEqual([
      { note: 'none' },
      { note: 'read apart' },
    ]);
    expect(reads).toEqual([[1, 2]]);
  });

  it('refuses a payload contributor with both sources, neither, or names that are not identifiers', () => {
    const base = {
      kind: 'event' as const,
      fields: { x: { protectedValue: '', schema: { type: 'string' } } },
      defaults: { x: '' },
    };
    const values = () => ({ x: '' });
    const contribute = () => Promise.resolve(new Map<number, { x: string }>());
    const stored = (table: string, columns = ['x']) => ({
      table,
      key: 'event_id',
      columns,
      values,
    });
    const refused = (contributor: PayloadContributor<{ x: string }>) => () =>
      new ExtensionRegistry().register({ name: 'bad', payload: [contributor] });
    expect(refused(base)).toThrow(/either stored or contribute/);
    expect(refused({ ...base, contribute, stored: stored('t') })).toThrow(/either stored/);
    expect(refused({ ...base, stored: stored('t; DROP TABLE events') })).toThrow(/identifier/);
    expect(refused({ ...base, stored: stored('T`x') })).toThrow(/identifier/);
    expect(refused({ ...base, stored: stored('t', []) })).toThrow(/no column/);
    expect(refused({ ...base, stored: stored('t') })).not.toThrow();
  });
});
