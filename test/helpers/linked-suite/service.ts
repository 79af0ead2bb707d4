import { ownQueries } from '../query-counter.js';
import { byNumber } from '../sort.js';
import { type LinkedSuiteScope, type Tec } from './scope.js';

export function describeService(s: LinkedSuiteScope): void {
  const { k, plural, t, create, named } = s;
  describe('service API for the events module', () => {
    it(`embeds several ${plural} in one query, redacting protected ones`, async () => {
      const service = t.app.get(k.service);
      const a = await create(
        t.users.editor,
        named('Embed A', { [k.detail]: 'Sopron', phone: '42' }),
      );
      const b = await create(
        t.users.editor,
        named('Embed B', { [k.detail]: 'Vác', password: 'pw' }),
      );
      const spy = vi.spyOn(t.ds.logger, 'logQuery');
      const map = await service.embedMany([a.id, b.id, a.id, 999999], t.ctxOf(null), {
        jsonLd: true,
      });
      expect(ownQueries(spy)).toHaveLength(1);
      spy.mockRestore();
      expect([...map.keys()].sort(byNumber)).toEqual([a.id, b.id].sort(byNumber));
      expect(map.get(a.id)).toMatchObject(named('Embed A', { [k.detail]: 'Sopron', phone: '42' }));
      expect((map.get(a.id) as Tec).json_ld).toMatchObject({
        '@type': k.jsonLd.type,
        name: 'Embed A',
      });
      expect(map.get(b.id)).toMatchObject(named([], { [k.detail]: '' }));
      expect(map.get(b.id)).not.toHaveProperty('json_ld');
      const plain = await service.embedMany([a.id], t.ctxOf(null), { jsonLd: false });
      expect(plain.get(a.id)).not.toHaveProperty('json_ld');
    });

    it(`tells which ids are ${plural}`, async () => {
      const service = t.app.get(k.service);
      const r = await create(t.users.contributor, named('Existing check'));
      const eventId = await t.insertEvent();
      expect(await service.existingIds([r.id, eventId, 999999])).toEqual(new Set([r.id]));
      expect(await service.existingIds([])).toEqual(new Set());
    });
  });
}
