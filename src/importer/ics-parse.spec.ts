import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliMessages } from '../config/messages.js';
import { readIcs } from './ics-parse.js';
import { said, type Reason } from './messages.js';

const FIXTURES = join(__dirname, '../../test/fixtures/ics-hostile');
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');
const WINDOW = { from: new Date('2027-01-01T00:00:00Z'), to: new Date('2028-01-01T00:00:00Z') };
/** The reasons in English (the CLI shows them in the operator's language). */
const english = (reason: Reason) => said(reason, cliMessages('en').t);
const problems = (text: string, bounds = { steps: 1000, ms: 60_000, totalMs: 60_000 }) =>
  readIcs(text, WINDOW, bounds)
    .items.filter((i) => i.problem)
    .map((i) => ({ ...i, problem: english(i.problem!) }));
/** CPU time of this process since `started` (process.cpuUsage()), in ms: what the work cost, whatever else the machine runs. */
const cpuMs = (started: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1000;
};

describe('readIcs: every expansion is bounded', () => {
  it('counts the steps before the window too', () => {
    const started = process.cpuUsage();
    expect(problems(fixture('secondly-1900.ics'))).toEqual([
      {
        id: 'every-second@probe',
        title: 'Every second since 1900',
        problem:
          'not expanded: its recurrence rule took more than 1000 steps (it had reached 1900-01-01 00:08:19 UTC, before the window)',
      },
    ]);
    expect(cpuMs(started)).toBeLessThan(5_000);
  });

  it('counts the steps the library takes inside one call for a rule that never matches', () => {
    const [never] = problems(fixture('never-matching.ics'));
    expect(never).toMatchObject({
      id: 'never@probe',
      problem: expect.stringMatching(
        /^not expanded: its recurrence rule took more than 1000 steps/,
      ),
    });
  });

  it('keeps what a cut series found, with a warning, and reads the events after it', () => {
    const reading = readIcs(fixture('never-matching.ics'), WINDOW, {
      steps: 20_000,
      ms: 60_000,
      totalMs: 60_000,
    });
    const daily = reading.items.filter((i) => i.id.startsWith('daily-by-seconds@probe@'));
    expect(daily.length).toBeGreaterThan(0);
    expect(reading.warnings.map(english)).toEqual([
      expect.stringMatching(
        /^daily-by-seconds@probe "Daily, stepped by the second": series cut short, its recurrence rule took more than 20000 steps; occurrences after 2027-/,
      ),
    ]);
    expect(reading.items.find((i) => i.id === 'plain@probe')?.body).toMatchObject({
      title: 'A plain one after them',
    });
  });

  it('bounds the time of a series and of the whole file', () => {
    const text = fixture('secondly-1900.ics');
    expect(problems(text, { steps: 1e12, ms: 50, totalMs: 60_000 })[0].problem).toMatch(
      /^not expanded: its recurrence rule took more than 0.05 s/,
    );
    expect(problems(text, { steps: 1e12, ms: 60_000, totalMs: 50 })[0].problem).toMatch(
      /^not expanded: the file's recurrence rules took more than 0.05 s in all/,
    );
  });
});
