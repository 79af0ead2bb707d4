import { threadCpuMs } from '../../common/cpu.js';
import { isEmail } from './users.service.js';

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
    const started = threadCpuMs();
    isEmail(`${'a.'.repeat(50_000)}@${'b-'.repeat(50_000)}`);
    expect(threadCpuMs() - started).toBeLessThan(1000); // quadratic would take minutes; no tight timing here
  });
});
