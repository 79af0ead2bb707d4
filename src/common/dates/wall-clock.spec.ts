import { eventWallClock } from './wall-clock.js';

const now = new Date('2026-03-04T10:30:00Z');

describe('eventWallClock (BEHAVIOR §1.4)', () => {
  it('reads words and dates in the event zone', () => {
    expect(eventWallClock('tomorrow 9am', 'America/New_York', now)).toBe('2026-03-05 09:00:00');
    expect(eventWallClock('2018-01-01 16:00', 'Europe/Budapest', now)).toBe('2018-01-01 16:00:00');
  });

  it('keeps the written wall clock of a string with an offset', () => {
    expect(eventWallClock('2018-01-01T16:00:00+02:00', 'UTC', now)).toBe('2018-01-01 16:00:00');
    expect(eventWallClock('2018-01-01T16:00:00Z', 'America/New_York', now)).toBe(
      '2018-01-01 16:00:00',
    );
  });

  it('turns a timestamp into its UTC wall clock, whatever the zone', () => {
    expect(eventWallClock(1700000000, 'Europe/Budapest', now)).toBe('2023-11-14 22:13:20');
    expect(eventWallClock('1700000000', 'America/New_York', now)).toBe('2023-11-14 22:13:20');
  });

  it('rejects what PHP rejects', () => {
    expect(eventWallClock('before my birthday', 'UTC', now)).toBeNull();
    expect(eventWallClock('2024-13-01', 'UTC', now)).toBeNull();
  });
});
