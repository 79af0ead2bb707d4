import { isWebUrl, servableUrl, webUrlColumn } from './web-url.js';

describe('isWebUrl', () => {
  it.each([
    'http://example',
    'https://example.org/a?b=c#d',
    'HTTPS://EXAMPLE.ORG',
    'http://[::1]:8080/',
  ])('accepts %j', (url) => expect(isWebUrl(url)).toBe(true));

  it.each([
    '',
    'foo',
    'javascript://example.org/%0aalert(1)',
    'javascript:alert(1)',
    'data:text/html,x',
    'ftp://example.org/',
    'http:example.org',
    'http:/example.org',
    'https:\\\\example.org',
    'http://',
    ' http://example.org',
    'http://exa mple.org',
    'http://example.org/\n',
    'http://example.org/\u0085',
    42,
    null,
  ])('refuses %j', (url) => expect(isWebUrl(url)).toBe(false));
});

describe('servableUrl and the column transformer', () => {
  it('keep web URLs and empties', () => {
    expect(servableUrl('https://example.org/')).toBe('https://example.org/');
    expect(servableUrl('')).toBe('');
    expect(servableUrl(null)).toBe(null);
  });

  it('drop any other scheme', () => {
    expect(servableUrl('javascript://example.org/%0aalert(1)')).toBe('');
    expect(servableUrl('data://x')).toBe('');
    expect(webUrlColumn(null).from('vbscript://x')).toBe(null);
    expect(webUrlColumn('').from('vbscript://x')).toBe('');
    expect(webUrlColumn(null).from(null)).toBe(null);
    expect(webUrlColumn(null).to('javascript://x')).toBe('javascript://x');
  });
});
