import type { NextFunction, Request, Response } from 'express';
import { languagePrefix, pickLanguage, type LangRequest } from './language.js';

describe('pickLanguage', () => {
  it('prefers the parameter, then the prefix, then the default', () => {
    expect(pickLanguage({ param: 'ro', pathLanguage: 'hu' }, 'en')).toBe('ro');
    expect(pickLanguage({ pathLanguage: 'hu' }, 'en')).toBe('hu');
    expect(pickLanguage({}, 'ro')).toBe('ro');
  });

  it('ignores an unsupported parameter (the guard rejects it)', () => {
    expect(pickLanguage({ param: 'de', pathLanguage: 'hu' }, 'en')).toBe('hu');
    expect(pickLanguage({ param: ['hu'] }, 'en')).toBe('en');
  });
});

describe('languagePrefix', () => {
  const run = (url: string, basePath = '') => {
    const req = { url } as LangRequest;
    languagePrefix('en', basePath)(
      req as Request,
      {} as Response,
      (() => undefined) as NextFunction,
    );
    return req;
  };

  it('strips a whole-segment prefix and remembers it', () => {
    const req = run('/hu/cal/events/v1/events?x=1');
    expect(req.url).toBe('/cal/events/v1/events?x=1');
    expect(req.pathLanguage).toBe('hu');
    expect(req.pathPrefix).toBe('/hu');
  });

  it('leaves other paths alone', () => {
    expect(run('/hungary/cal').url).toBe('/hungary/cal');
    expect(run('/cal/events/v1').pathLanguage).toBeUndefined();
  });

  it('accepts the prefix after BASE_PATH too', () => {
    const req = run('/wp-json/ro/cal/events/v1', '/wp-json');
    expect(req.url).toBe('/wp-json/cal/events/v1');
    expect(req.pathLanguage).toBe('ro');
    expect(run('/ro/wp-json/cal/events/v1', '/wp-json').url).toBe('/wp-json/cal/events/v1');
  });
});
