import { dateWindow, isStrict, parseSearch } from './event-filters.js';

const now = new Date('2026-03-04T10:30:00Z');
const none = new Set<string>();
const win = (params: Record<string, string>, opts: { siteZone?: string; include?: boolean } = {}) =>
  dateWindow(params, new Set(Object.keys(params)), {
    siteZone: opts.siteZone ?? 'UTC',
    now,
    include: opts.include ?? false,
  });

describe('dateWindow (BEHAVIOR §5.2.3-§5.2.4)', () => {
  it('defaults to yesterday 00:00:00 .. +24 months 23:59:59 on a UTC site', () => {
    expect(dateWindow({}, none, { siteZone: 'UTC', now, include: false }).bounds).toEqual({
      startDate: '2026-03-03 00:00:00',
      endDate: '2028-03-04 23:59:59',
    });
  });

  it('starts today for zones east of UTC', () => {
    expect(win({}, { siteZone: 'Europe/Budapest' }).bounds.startDate).toBe('2026-03-04 00:00:00');
    expect(win({}, { siteZone: 'America/New_York' }).bounds.startDate).toBe('2026-03-03 00:00:00');
  });

  it('uses whole days in inclusive mode', () => {
    expect(win({ start_date: '2018-01-01 16:00:00', end_date: '2018-01-05 10:00' }).bounds).toEqual(
      {
        startDate: '2018-01-01 00:00:00',
        endDate: '2018-01-05 23:59:59',
      },
    );
  });

  it('uses the given times in strict mode, read as UTC and shown in the site zone', () => {
    const w = win(
      { start_date: '2017-12-21 00:00:00', strict_dates: 'true' },
      { siteZone: 'America/New_York' },
    );
    expect(w.bounds.startDate).toBe('2017-12-20 19:00:00');
    expect(win({ start_date: '2017-12-21 10:15:00', strict_dates: '1' }).bounds.startDate).toBe(
      '2017-12-21 10:15:00',
    );
  });

  it('has strict defaults of yesterday 23:59 and now + 24 months', () => {
    expect(win({ strict_dates: 'yes' }).bounds).toEqual({
      startDate: '2026-03-03 23:59:00',
      endDate: '2028-03-04 10:30:00',
    });
  });

  it('drops default bounds when a relative filter is in the query, keeps given ones', () => {
    expect(win({ starts_after: '2017-12-31' }).bounds).toEqual({
      startsAfter: '2017-12-31 23:59:59',
    });
    expect(win({ ends_after: '2017-12-31', start_date: '2017-12-01' }).bounds).toEqual({
      startDate: '2017-12-01 00:00:00',
      endsAfter: '2017-12-31 23:59:59',
    });
  });

  it('ends relative bounds at 23:59:59 of their day in inclusive mode', () => {
    expect(win({ ends_after: '2017-12-31', starts_before: '2018-01-02' }).bounds).toEqual({
      endsAfter: '2017-12-31 23:59:59',
      startsBefore: '2018-01-02 23:59:59',
    });
  });

  it('ignores start/end dates with include but keeps relative filters', () => {
    expect(win({ start_date: '2018-01-01' }, { include: true }).bounds).toEqual({});
    expect(win({ ends_before: '2018-01-01' }, { include: true }).bounds).toEqual({
      endsBefore: '2018-01-01 23:59:59',
    });
  });

  it('echoes the normalised values', () => {
    expect(win({ start_date: 'tomorrow' }).echo).toEqual({
      start_date: '2026-03-05 00:00:00',
      end_date: '2028-03-04 23:59:59',
    });
  });
});

describe('isStrict', () => {
  it.each([
    ['1', true],
    ['TRUE', true],
    ['on', true],
    ['Yes', true],
    ['false', false],
    ['0', false],
    ['x', false],
  ])('%s → %s', (v, expected) => expect(isStrict(v)).toBe(expected));
});

describe('parseSearch', () => {
  it('splits words, keeps quoted phrases and negative words', () => {
    expect(parseSearch('jazz "open air" -rain')).toEqual({
      include: ['jazz', 'open air'],
      exclude: ['rain'],
    });
    expect(parseSearch('   ')).toBeUndefined();
  });
});
