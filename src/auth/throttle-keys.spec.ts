import { addressKey, loginKey, normalizeLogin } from './throttle-keys.js';

describe('addressKey', () => {
  it('keeps IPv4 addresses and unwraps IPv4-mapped IPv6 ones', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::FFFF:cb00:7107')).toBe('203.0.113.7');
  });

  it('counts an IPv6 address as its /64', () => {
    const key = addressKey('2001:db8:1:2:aaaa::1');
    expect(key).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:0DB8:0001:0002:ffff:ffff:ffff:ffff')).toBe(key);
    expect(addressKey('2001:db8:1:2::%eth0')).toBe(key);
    expect(addressKey('2001:db8:1:3::1')).not.toBe(key);
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('fe80::1:2:3:4')).toBe('fe80:0:0:0::/64');
    expect(addressKey('64:ff9b::192.0.2.33')).toBe('64:ff9b:0:0::/64');
  });

  it('puts anything that is not an address in one bucket', () => {
    expect(addressKey(undefined)).toBe('unknown');
    expect(addressKey('')).toBe('unknown');
    expect(addressKey('not-an-ip')).toBe('unknown');
  });
});

describe('login keys', () => {
  it('ignore case, surrounding whitespace and inner whitespace runs, as WordPress does', () => {
    expect(normalizeLogin('  Admin \t User ')).toBe('admin user');
    expect(loginKey('ADMIN')).toBe(loginKey(' admin'));
    expect(loginKey('ａｄｍｉｎ')).toBe(loginKey('admin'));
    expect(loginKey('admin')).not.toBe(loginKey('admin2'));
  });

  it('have one small size whatever the login', () => {
    expect(loginKey('x'.repeat(10_000))).toHaveLength(22);
    expect(loginKey('')).toHaveLength(22);
  });
});
