import { parseAge, parseCommandLine, parseSince, UsageError } from './command-line.js';
import { cliMessages } from '../config/messages.js';

const parse = (line: string) => parseCommandLine(line ? line.split(' ') : [], cliMessages('en').t);

describe('parseCommandLine', () => {
  it('reads a command, its arguments and options in any order, with = or a separate value', () => {
    expect(parse('user:create alice --role editor --email=a@example.org')).toMatchObject({
      spec: { name: 'user:create' },
      args: ['alice'],
      options: { role: 'editor', email: 'a@example.org' },
    });
    expect(parse('user:list --json')).toMatchObject({ options: { json: true } });
    expect(parse('records:purge-trash --older-than 30d')).toMatchObject({
      options: { 'older-than': '30d' },
    });
  });

  it('answers help for --help, -h and help, with or without a command', () => {
    expect(parse('--help')).toEqual({ help: true });
    expect(parse('-h')).toEqual({ help: true });
    expect(parse('help user:password')).toMatchObject({
      help: true,
      spec: { name: 'user:password' },
    });
    expect(parse('user:create --help')).toMatchObject({
      help: true,
      spec: { name: 'user:create' },
    });
    // --help wins over what is missing or wrong before it.
    expect(parse('user:delete -h')).toMatchObject({ help: true, spec: { name: 'user:delete' } });
  });

  it.each([
    ['', 'no command given'],
    ['frobnicate', 'unknown command "frobnicate"'],
    ['--verbose', 'unknown option "--verbose"'],
    ['help frobnicate', 'unknown command "frobnicate"'],
    ['user:create alice --role editor --bogus', 'user:create has no option "--bogus"'],
    ['user:create alice --role', '--role needs a value (ROLE)'],
    ['user:create alice --role --email a@example.org', '--role needs a value (ROLE)'],
    ['user:create alice --role=', '--role needs a value (ROLE)'],
    ['user:create alice', 'user:create needs --role ROLE'],
    ['user:create --role editor', 'user:create needs <login>'],
    ['user:create alice bob --role editor', 'user:create does not take "bob"'],
    ['user:create alice --role editor --role author', '--role is given twice'],
    ['user:list --json=yes', '--json takes no value'],
    ['user:list -j', 'user:list has no option "-j"'],
    ['user:delete', 'user:delete needs <login>'],
    ['records:purge-trash --older-than 30', '--older-than takes an age such as 12h, 30d or 2w'],
    ['records:purge-trash --older-than', '--older-than needs a value (AGE)'],
  ])('refuses "%s": %s', (line, message) => {
    expect(() => parse(line)).toThrow(UsageError);
    expect(() => parse(line)).toThrow(message);
  });
});

describe('parseSince', () => {
  it('reads --since as UTC unless it has an offset', () => {
    expect(parseSince('2026-11-01')?.toISOString()).toBe('2026-11-01T00:00:00.000Z');
    expect(parseSince('2026-11-01 12:30')?.toISOString()).toBe('2026-11-01T12:30:00.000Z');
    expect(parseSince('2026-11-01T12:30:00+02:00')?.toISOString()).toBe('2026-11-01T10:30:00.000Z');
    expect(parseSince('yesterday')).toBeNull();
    expect(parseSince('2026-13-45')).toBeNull();
  });
});

describe('parseAge', () => {
  it('reads hours, days and weeks', () => {
    expect(parseAge('12h')).toBe(12 * 3600_000);
    expect(parseAge('30d')).toBe(30 * 86400_000);
    expect(parseAge('2w')).toBe(14 * 86400_000);
    expect(parseAge('0d')).toBe(0);
  });

  it.each(['30', 'd', '1.5d', '-1d', '30 days', '1234567d', ''])('refuses "%s"', (value) => {
    expect(parseAge(value)).toBeNull();
  });
});
