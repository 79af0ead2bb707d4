import { redactProtected } from './redact.js';

describe('redactProtected (BEHAVIOR §4.11)', () => {
  it('replaces protected keys recursively and keeps the rest', () => {
    expect(
      redactProtected({
        id: 1,
        title: 'T',
        description: '<p>x</p>',
        image: { url: 'u' },
        featured: true,
        cost_details: {
          currency_symbol: '$',
          currency_code: '',
          currency_position: 'prefix',
          values: ['1'],
        },
        venue: { id: 2, address: 'a' },
        nested: [{ phone: '1', state: 'CA' }],
        geo_lat: 47.5,
      }),
    ).toEqual({
      id: 1,
      title: 'T',
      description: '',
      image: false,
      featured: null,
      cost_details: { currency_symbol: '', currency_position: '', currency_code: '', values: [] },
      venue: [],
      nested: [{ phone: '', state: 'CA' }],
      geo_lat: 0,
    });
  });
});
