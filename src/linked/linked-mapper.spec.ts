import { isEmptyValue, omitEmpty, postUrl } from './linked-mapper.js';
import { imageObject } from '../posts/image.js';
import { jsonLdDescription } from '../posts/json-ld.js';
import { redactProtected } from '../posts/redact.js';
import { ORGANIZER_KIND, VENUE_KIND } from './linked-kind.js';

describe('linked mapper helpers', () => {
  it('builds the image object of a URL-only image', () => {
    expect(imageObject(7, 'https://x.example/a/pic.webp?v=2')).toEqual({
      url: 'https://x.example/a/pic.webp?v=2',
      id: 7,
      extension: 'webp',
    });
    expect(imageObject(7, 'https://x.example/noext')?.extension).toBe('');
    expect(imageObject(7, null)).toBeNull();
  });

  it('drops what PHP empty() drops', () => {
    expect(
      omitEmpty({ a: '', b: '0', c: 0, d: false, e: null, f: [], g: 'x', h: 1, i: true }),
    ).toEqual({ g: 'x', h: 1, i: true });
    expect(isEmptyValue('0000-00-00 00:00:00')).toBe(false);
  });

  it('links published records by slug and the others by id (BEHAVIOR §1.9)', () => {
    const site = 'http://s.test';
    expect(postUrl(VENUE_KIND, site, { id: 3, slug: 'hall' }, 'publish')).toBe(
      'http://s.test/venue/hall/',
    );
    expect(postUrl(ORGANIZER_KIND, site, { id: 3, slug: 'ann' }, 'private')).toBe(
      'http://s.test/organizer/ann/',
    );
    for (const status of ['draft', 'pending', 'future']) {
      expect(postUrl(VENUE_KIND, site, { id: 3, slug: 'hall' }, status)).toBe(
        'http://s.test/?post_type=cal_venue&p=3',
      );
    }
    expect(postUrl(ORGANIZER_KIND, site, { id: 4, slug: null }, 'publish')).toBe(
      'http://s.test/?post_type=cal_organizer&p=4',
    );
  });

  it('redacts the keys a protected record shows, recursively (BEHAVIOR §4.11)', () => {
    expect(
      redactProtected({
        id: 1,
        venue: 'Name',
        state: 'CA',
        city: 'X',
        image: { url: 'u' },
        show_map: true,
        geo_lat: 4,
        nested: { phone: '1', list: [{ email: 'e' }] },
      }),
    ).toEqual({
      id: 1,
      venue: [],
      state: 'CA',
      city: '',
      image: false,
      show_map: null,
      geo_lat: 0,
      nested: { phone: '', list: [{ email: '' }] },
    });
  });

  it('describes JSON-LD with the excerpt or the first words of the description', () => {
    expect(jsonLdDescription({ excerpt: 'Short', description: 'Long' })).toBe('<p>Short</p>');
    const words = Array.from({ length: 60 }, (_, i) => `w${i}`).join(' ');
    const d = jsonLdDescription({ excerpt: '', description: words });
    expect(d.startsWith('<p>w0 w1')).toBe(true);
    expect(d).toContain('w54&hellip;</p>');
    expect(jsonLdDescription({ excerpt: '', description: '' })).toBe('');
  });
});
