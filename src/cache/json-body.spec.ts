import { RecordCache } from './record-cache.js';
import { WriteVersion } from './write-version.js';
import { JsonBody } from '../common/http/json-body.js';

describe('JsonBody', () => {
  const records = new RecordCache({ recordCacheMb: 1 }, new WriteVersion());
  const json = new JsonBody(records);
  const text = (value: unknown) => json.chunks(value)?.join().toString('utf8');

  class Point {
    constructor(
      public x: number,
      public y: number,
    ) {}
  }

  it('writes what JSON.stringify writes, byte for byte', () => {
    const nullProto = Object.assign(Object.create(null) as object, { a: 1 });
    const values: unknown[] = [
      null,
      0,
      -0,
      1.5,
      NaN,
      Infinity,
      'text "quoted" \u2028 \ud800 é',
      true,
      [],
      {},
      [undefined, () => 1, Symbol('s'), null],
      { a: undefined, b: () => 1, c: Symbol('s'), 'd"e': 1, '\n': [1, { x: [2, { y: 3 }] }] },
      { events: [{ id: 1, nested: { deep: [1, 2, { deeper: true }] } }], total: 1 },
      { when: new Date(0), point: new Point(1, 2), list: [new Date(0), new Point(3, 4)] },
      { custom: { toJSON: () => ({ replaced: true }) } },
      nullProto,
      [[[[['deep']]]]],
      { 2: 'b', 1: 'a', z: 'z', a: 'a' },
    ];
    for (const value of values) expect(text(value)).toBe(JSON.stringify(value));
  });

  it('splices in the JSON the record cache wrote for a payload it keeps', async () => {
    const readAt = records.version();
    const [payload] = await records.payloads('event', [1], 'v', readAt, () =>
      Promise.resolve(new Map([[1, { id: 1, title: 'Kept' }]])),
    );
    const list = { events: [payload], total: 1 };
    expect(text(list)).toBe(JSON.stringify(list));
    // The kept JSON is what is sent: a payload changed afterwards (which nobody may do) shows it.
    (payload as { title: string }).title = 'Changed';
    expect(text(list)).toBe('{"events":[{"id":1,"title":"Kept"}],"total":1}');
  });
});
