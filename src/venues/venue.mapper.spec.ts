import { VenueEntity } from './venue.entity.js';
import { deriveStateProvince, toTecVenue } from './venue.mapper.js';

function venue(over: Partial<VenueEntity> = {}): VenueEntity {
  return Object.assign(new VenueEntity(), {
    id: 12,
    authorId: 0,
    status: 'publish',
    title: 'Hall',
    slug: 'hall',
    description: '',
    excerpt: '',
    password: '',
    date: '2024-01-01 10:00:00',
    dateUtc: '2024-01-01 09:00:00',
    modified: '2024-01-02 10:00:00',
    modifiedUtc: '2024-01-02 09:00:00',
    imageUrl: null,
    language: 'en',
    address: '',
    city: 'Pécs',
    country: '',
    province: '',
    state: '',
    zip: '',
    phone: '',
    stateprovince: '',
    website: '',
    showMap: false,
    showMapLink: true,
    geoLat: null,
    geoLng: null,
    ...over,
  });
}

const ctx = { siteUrl: 'http://cal.test', nowUtc: '2025-01-01 00:00:00' };

describe('toTecVenue (BEHAVIOR §4.4)', () => {
  it('drops empty values (author "0" included) and appends flags and global ids', () => {
    expect(toTecVenue(venue(), ctx, { jsonLd: false, redact: false })).toEqual({
      id: 12,
      status: 'publish',
      date: '2024-01-01 10:00:00',
      date_utc: '2024-01-01 09:00:00',
      modified: '2024-01-02 10:00:00',
      modified_utc: '2024-01-02 09:00:00',
      url: 'http://cal.test/venue/hall/',
      venue: 'Hall',
      slug: 'hall',
      city: 'Pécs',
      show_map: false,
      show_map_link: true,
      global_id: 'cal.test?id=12',
      global_id_lineage: ['cal.test?id=12'],
      language: 'en',
      translations: { en: 12 },
    });
  });

  it('shows a passed scheduled venue as published, and zero coordinates', () => {
    const v = toTecVenue(
      venue({ status: 'future', dateUtc: '2024-06-01 00:00:00', geoLat: 0, geoLng: 0 }),
      ctx,
      { jsonLd: false, redact: false },
    );
    expect(v).toMatchObject({ status: 'publish', geo_lat: 0, geo_lng: 0 });
  });

  it('puts json_ld before the flags and redacts protected venues', () => {
    const v = toTecVenue(venue({ zip: '7621' }), ctx, {
      jsonLd: true,
      redact: false,
      translations: { en: 12, ro: 30 },
    });
    expect(Object.keys(v).slice(-7)).toEqual([
      'json_ld',
      'show_map',
      'show_map_link',
      'global_id',
      'global_id_lineage',
      'language',
      'translations',
    ]);
    expect(v.translations).toEqual({ en: 12, ro: 30 });
    expect(v.json_ld).toMatchObject({
      '@type': 'Place',
      address: { '@type': 'PostalAddress', addressLocality: 'Pécs', postalCode: '7621' },
    });
    const r = toTecVenue(venue({ zip: '7621' }), ctx, { jsonLd: false, redact: true });
    expect(r).toMatchObject({ venue: [], city: '', zip: '', show_map: null, slug: 'hall' });
  });
});

describe('deriveStateProvince (BEHAVIOR §7.4.2)', () => {
  it.each([
    [{ state: 'CA', province: '', country: '' }, 'CA'],
    [{ state: 'CA', province: 'P', country: 'US' }, 'CA'],
    [{ state: 'CA', province: 'P', country: 'United States' }, 'CA'],
    [{ state: 'CA', province: 'P', country: 'Canada' }, 'P'],
    [{ state: '', province: 'P', country: '' }, 'P'],
    [{ state: '', province: '', country: 'US' }, ''],
  ])('%p → %p', (input, expected) => {
    expect(deriveStateProvince(input)).toBe(expected);
  });
});
