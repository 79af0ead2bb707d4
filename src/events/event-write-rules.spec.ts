import type { Actor } from '../common/actor.js';
import { contentFilter } from '../common/text/index.js';
import type { CreateEventDto } from './dto/create-event.dto.js';
import {
  applyCost,
  applyDates,
  applyFields,
  applyStatus,
  newEvent,
  slugBase,
  type WriteClock,
} from './event-write-rules.js';

const editor = { user: { id: 7, role: 'editor' } } as unknown as Actor;
const contributor = { user: { id: 8, role: 'contributor' } } as unknown as Actor;
const now = new Date('2030-06-15T12:00:00Z');
const clock: WriteClock = { siteZone: 'Europe/Budapest', now };
const html = contentFilter(true);
const create = (dto: Partial<CreateEventDto>, actor: Actor = editor) => {
  const full = {
    title: 'T',
    start_date: '2031-03-30 10:00:00',
    end_date: '2031-03-30 12:00:00',
    ...dto,
  };
  const event = newEvent(1, full, 7, 'en', html);
  applyDates(event, full, clock, true);
  applyStatus(event, full, actor, clock, true);
  return event;
};

describe('event write rules (pure)', () => {
  it('creates with the plugin defaults and the site zone', () => {
    const e = create({});
    expect(e).toMatchObject({
      id: 1,
      authorId: 7,
      language: 'en',
      timezone: 'Europe/Budapest',
      allDay: false,
      featured: false,
      website: null,
      venueId: null,
      slug: null,
      startDate: '2031-03-30 10:00:00',
      // Budapest is on summer time (UTC+2) after the last Sunday of March.
      startUtc: '2031-03-30 08:00:00',
      status: 'publish',
      date: '2030-06-15 14:00:00',
      dateUtc: '2030-06-15 12:00:00',
      modifiedUtc: '2030-06-15 12:00:00',
    });
  });

  it('spans all-day events over whole days and never lets the end precede the start', () => {
    const allDay = create({
      all_day: true,
      start_date: '2031-01-05 15:00',
      end_date: '2031-01-06 09:00',
    });
    expect([allDay.startDate, allDay.endDate]).toEqual([
      '2031-01-05 00:00:00',
      '2031-01-06 23:59:59',
    ]);
    const backwards = create({ start_date: '2031-01-05 15:00', end_date: '2031-01-05 09:00' });
    expect(backwards.endDate).toBe(backwards.startDate);
    expect(backwards.endUtc).toBe(backwards.startUtc);
  });

  it('reads `date` in the event zone and derives the other publication date through the site zone', () => {
    const e = create({ timezone: 'America/New_York', date: '2030-01-10 08:00:00' });
    expect(e.date).toBe('2030-01-10 08:00:00');
    expect(e.dateUtc).toBe('2030-01-10 07:00:00'); // 08:00 Budapest (UTC+1 in winter)
    const utc = create({ date_utc: '2030-01-10 08:00:00' });
    expect([utc.date, utc.dateUtc]).toEqual(['2030-01-10 09:00:00', '2030-01-10 08:00:00']);
  });

  it('makes a future-dated publish `future`, leaves undated drafts undated, and dates a first publish', () => {
    expect(create({ date_utc: '2031-01-01 00:00:00' }).status).toBe('future');
    const draft = create({ status: 'draft' });
    expect([draft.status, draft.dateUtc]).toEqual(['draft', null]);
    // A contributor's publish is pending (WordPress capabilities).
    expect(create({ status: 'publish' }, contributor).status).toBe('pending');
    draft.status = 'draft';
    applyStatus(draft, { status: 'publish' }, editor, clock, false);
    expect([draft.status, draft.dateUtc]).toEqual(['publish', '2030-06-15 12:00:00']);
  });

  it('updates only the fields given, and the cost symbol only when the new cost has one', () => {
    const e = create({ cost: undefined });
    applyCost(e, { entries: [10], symbol: '€', position: 'suffix' } as never);
    applyFields(e, { featured: true }, html);
    expect([e.title, e.featured, e.cost, e.currencySymbol]).toEqual(['T', true, '[10]', '€']);
    applyCost(e, { entries: [12], symbol: '', position: '' } as never);
    expect([e.cost, e.currencySymbol, e.currencyPosition]).toEqual(['[12]', '€', 'suffix']);
    applyCost(e, undefined);
    expect(e.cost).toBe('[12]');
  });

  it('gives a slug to public records only, unless one is asked for', () => {
    const e = create({});
    expect(slugBase(e, undefined)).toBe('T');
    expect(slugBase(e, 'given')).toBe('given');
    e.slug = 't';
    expect(slugBase(e, undefined)).toBeUndefined();
    const draft = create({ status: 'draft' });
    expect(slugBase(draft, undefined)).toBeUndefined();
    // A contributor's publish becomes pending: no slug yet either.
    expect(slugBase(create({}, contributor), undefined)).toBeUndefined();
  });
});
