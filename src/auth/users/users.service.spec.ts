import { isEmail } from './users.service.js';

/** CPU time of this process since `started` (process.cpuUsage()), in ms: what the work cost, not how long a loaded machine took to give it the CPU. */
const cpuMsSince = (started: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1000;
};

describe('isEmail', () => {
  it.each(['alice@example.org', 'a.b+tag@mail.example.co.uk', "o'hara@x-y.example"])(
    'accepts %s',
    (value) => expect(isEmail(value)).toBe(true),
  );

  it.each([
    'alice',
    'alice@',
    '@example.org',
    'alice@example',
    'alice@@example.org',
    'a@b@example.org',
    'alice smith@example.org',
    'alice@-example.org',
    'alice@example..org',
    `${'a'.repeat(95)}@example.org`,
  ])('refuses %s', (value) => expect(isEmail(value)).toBe(false));

  it('stays fast on long hostile input', () => {
    const started = process.cpuUsage();
    isEmail(`${'a.'.repeat(50_000)}@${'b-'.repeat(50_000)}`);
    expect(cpuMsSince(started)).toBeLessThan(1000); // quadratic would take minutes; no tight timing here
  });
});
