import { threadCpuMs } from '../cpu.js';
import { isSecretParam, redactText, redactUrl } from './request-logger.js';

describe('redactUrl', () => {
  it.each([
    ['/e?password=hunter2', '/e?password=%5Bredacted%5D'],
    ['/e?Password=hunter2', '/e?Password=%5Bredacted%5D'],
    ['/e?pass%77ord=hunter2', '/e?password=%5Bredacted%5D'],
    ['/e?password[]=hunter2', '/e?password%5B%5D=%5Bredacted%5D'],
    ['/e?password%5B%5D=hunter2', '/e?password%5B%5D=%5Bredacted%5D'],
    ['/e?password[0]=hunter2', '/e?password%5B0%5D=%5Bredacted%5D'],
    ['/e?a[password]=hunter2', '/e?a%5Bpassword%5D=%5Bredacted%5D'],
    ['/e?a[b][PassWord][]=hunter2', '/e?a%5Bb%5D%5BPassWord%5D%5B%5D=%5Bredacted%5D'],
    ['/e?pass%77ord[]=hunter2', '/e?password%5B%5D=%5Bredacted%5D'],
    ['/e?PASS%57ORD%5b%5d=hunter2', '/e?PASSWORD%5B%5D=%5Bredacted%5D'],
    ['/e?a.password=hunter2', '/e?a.password=%5Bredacted%5D'],
    ['/e?token=hunter2&secret=hunter2', '/e?token=%5Bredacted%5D&secret=%5Bredacted%5D'],
  ])('redacts %s', (url, logged) => {
    expect(redactUrl(url)).toBe(logged);
    expect(redactUrl(url)).not.toContain('hunter2');
  });

  it('redacts every value of a repeated secret and keeps the other parameters', () => {
    expect(redactUrl('/e?page=2&password[]=a1&password[]=b2&search=x%20y')).toBe(
      '/e?page=2&password%5B%5D=%5Bredacted%5D&password%5B%5D=%5Bredacted%5D&search=x%20y',
    );
  });

  it('leaves URLs without secrets exactly as they came', () => {
    expect(redactUrl('/e?search=x%20y&categories[]=1')).toBe('/e?search=x%20y&categories[]=1');
    expect(redactUrl('/e/1')).toBe('/e/1');
    // Names that merely contain a secret word are not secret.
    expect(redactUrl('/e?passwordless=1&compass=2')).toBe('/e?passwordless=1&compass=2');
  });

  it.each([
    // A `?` inside rest_route, encoded once or twice.
    [
      '/?rest_route=/cal/events/v1/events/4%3Fpassword%3Dhunter2',
      '/?rest_route=%2Fcal%2Fevents%2Fv1%2Fevents%2F4%3Fpassword%3D%255Bredacted%255D',
    ],
    [
      '/?rest_route=/cal/events/v1/events/4%253Fpassword%253Dhunter2',
      '/?rest_route=%2Fcal%2Fevents%2Fv1%2Fevents%2F4%253Fpassword%3D%255Bredacted%255D',
    ],
    // An encoded `?` in the path itself.
    [
      '/cal/events/v1/events/4%3Fpassword%3Dhunter2',
      '/cal/events/v1/events/4%3Fpassword=%5Bredacted%5D',
    ],
    // A link carried by a parameter.
    [
      '/e?next=https%3A%2F%2Fx.test%2F%3Ftoken%3Dhunter2',
      '/e?next=https%3A%2F%2Fx.test%2F%3Ftoken%3D%255Bredacted%255D',
    ],
    [
      '/e?next=https%3A%2F%2Fme%3Ahunter2%40x.test%2F',
      '/e?next=https%3A%2F%2F%5Bredacted%5D%40x.test%2F',
    ],
    ['/e?q=a%3D1%26password%3Dhunter2', '/e?q=a%3D1%26password%3D%255Bredacted%255D'],
    // Compound names and credential values.
    ['/e?access_token=hunter2', '/e?access_token=%5Bredacted%5D'],
    ['/e?app-password=hunter2', '/e?app-password=%5Bredacted%5D'],
    ['/e?api_key=hunter2&_wpnonce=hunter2', '/e?api_key=%5Bredacted%5D&_wpnonce=%5Bredacted%5D'],
    ['/e?HTTP_AUTHORIZATION=hunter2', '/e?HTTP_AUTHORIZATION=%5Bredacted%5D'],
    ['/e?h=Basic%20aHVudGVyMg%3D%3D%20hunter2', '/e?h=%5Bredacted%5D'],
    ['/e?x=Bearer+hunter2', '/e?x=%5Bredacted%5D'],
  ])('redacts secrets carried inside %s', (url, logged) => {
    expect(redactUrl(url)).toBe(logged);
    expect(redactUrl(url)).not.toContain('hunter2');
  });

  it('leaves URLs inside URLs alone when they hold no secret', () => {
    for (const url of [
      '/?rest_route=/cal/events/v1/events/4%3Fpage%3D2',
      '/cal/events/v1/events/by-slug/a%3Fb',
      '/e?next=https%3A%2F%2Fx.test%2F%3Fpage%3D2&email=a%40b.test',
      '/e?search=a%3Db',
    ]) {
      expect(redactUrl(url)).toBe(url);
    }
  });

  it('redacts the URLs quoted in a message or a stack', () => {
    const text =
      'GET /?rest_route=/cal/events/v1/events/4%3Fpassword%3Dhunter2 failed\n' +
      '  fetching "https://me:hunter2@x.test/a?token=hunter2&page=2" at x.ts:1';
    const logged = redactText(text);
    expect(logged).not.toContain('hunter2');
    expect(logged).toContain('page=2');
    expect(logged).toContain(' failed\n  fetching "');
    expect(redactText('no URL here: a=b, x@y.test')).toBe('no URL here: a=b, x@y.test');
  });

  it('judges names by their parts', () => {
    expect(isSecretParam('password')).toBe(true);
    expect(isSecretParam('x[Pwd]')).toBe(true);
    expect(isSecretParam('password_hint')).toBe(false);
    expect(isSecretParam('access_token')).toBe(true);
    expect(isSecretParam('author')).toBe(false);
    expect(isSecretParam('per_page')).toBe(false);
    expect(isSecretParam('')).toBe(false);
  });

  it('stays linear on long hostile names', () => {
    const name = '['.repeat(50_000) + 'a'.repeat(50_000);
    const started = threadCpuMs();
    expect(redactUrl(`/e?${name}=1`)).toBe(`/e?${name}=1`);
    expect(threadCpuMs() - started).toBeLessThan(1000); // quadratic would take minutes
  });

  it('stays linear on long nested values', () => {
    const deep = `/e?a=${'%253F'.repeat(3000)}${'x%3D1%26'.repeat(3000)}&b=${'//@'.repeat(5000)}`;
    const started = threadCpuMs();
    redactUrl(deep);
    redactText(`${deep} ${'?'.repeat(20_000)}`);
    expect(threadCpuMs() - started).toBeLessThan(1000);
  });
});
