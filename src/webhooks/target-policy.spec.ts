import { addressAllowed, checkTarget, checkTargetUrl } from './target-policy.js';
import { parseAllowedTargets } from '../config/webhooks.js';

const none = parseAllowedTargets(undefined);

describe('webhook target policy', () => {
  it('refuses loopback, private, link-local and metadata addresses by default', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      'fe80::1',
      'fd00:ec2::254',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      // IPv4-compatible and IPv4-translated forms (issue 44), as written and as URLs spell them.
      '::7f00:1',
      '::127.0.0.1',
      '::ffff:0:127.0.0.1',
      '::ffff:0:7f00:1',
      '0:0:0:0:0:0:7f00:1',
      '0:0:0:0:ffff:0:a00:1',
      '::a9fe:a9fe',
      '::ffff:0:c0a8:101',
    ]) {
      expect([address, addressAllowed(address, none)]).toEqual([address, false]);
    }
    expect(addressAllowed('93.184.215.14', none)).toBe(true);
    expect(addressAllowed('2606:4700::1111', none)).toBe(true);
    expect(addressAllowed('::5db8:d70e', none)).toBe(true);
    for (const url of [
      'https://[::7f00:1]/',
      'https://[::127.0.0.1]/',
      'https://[::ffff:0:127.0.0.1]/',
    ]) {
      expect([url, checkTargetUrl(url, none)?.key]).toEqual([url, 'webhooks.reason.forbidden']);
    }
    // An operator's IPv6 allowance still holds as written.
    expect(addressAllowed('::1', parseAllowedTargets('::1'))).toBe(true);
  });

  it('requires https unless the host is allowed, and then allows http and the address', () => {
    expect(checkTargetUrl('http://example.org/hook', none)).toEqual({
      key: 'webhooks.reason.https',
    });
    expect(checkTargetUrl('https://127.0.0.1/hook', none)?.key).toBe('webhooks.reason.forbidden');
    expect(checkTargetUrl('https://user:pw@example.org/', none)?.key).toBe(
      'webhooks.reason.credentials',
    );
    expect(checkTargetUrl('ftp://example.org/', none)?.key).toBe('webhooks.reason.url');
    const allowed = parseAllowedTargets('127.0.0.1, 10.0.0.0/8, hooks.internal');
    expect(checkTargetUrl('http://127.0.0.1:9000/hook', allowed)).toBeNull();
    expect(checkTargetUrl('http://10.9.8.7/hook', allowed)).toBeNull();
    expect(checkTargetUrl('http://hooks.internal/hook', allowed)).toBeNull();
    expect(checkTargetUrl('http://192.168.0.1/hook', allowed)?.key).toBe('webhooks.reason.https');
    expect(addressAllowed('10.200.0.1', allowed)).toBe(true);
  });

  it('checks every address a name resolves to', async () => {
    const resolver = (addresses: string[]) => () => Promise.resolve(addresses);
    expect(
      await checkTarget('https://hooks.example.org/', none, resolver(['93.184.215.14'])),
    ).toBeNull();
    expect(
      await checkTarget(
        'https://hooks.example.org/',
        none,
        resolver(['93.184.215.14', '10.0.0.1']),
      ),
    ).toEqual({ key: 'webhooks.reason.forbidden', args: { address: '10.0.0.1' } });
    expect(
      (await checkTarget('https://nowhere.example/', none, () => Promise.reject(new Error('x'))))
        ?.key,
    ).toBe('webhooks.reason.unresolved');
  });

  it('names a bad WEBHOOK_ALLOWED_TARGETS entry', () => {
    expect(() => parseAllowedTargets('10.0.0.0/40')).toThrow(/10\.0\.0\.0\/40/);
    expect(() => parseAllowedTargets('not a host')).toThrow(/not a host/);
  });
});
