import type { Schema } from './schema.js';
import { fieldsOf, TEC_SCHEMAS } from './schemas.js';

interface Payload {
  id: number;
  name?: string;
}
const field: Schema = { type: 'string' };

// The records' schemas are typed by the payload interfaces (fieldsOf): the type check is the test.
// These lines hold that it refuses what it must (an unused `@ts-expect-error` fails it too).
describe('the payload interfaces type the schema list', () => {
  it('takes exactly the fields of the payload, optional ones included', () => {
    expect(Object.keys(fieldsOf<Payload>()({ id: field, name: field }))).toEqual(['id', 'name']);
    // @ts-expect-error: `name` is a field of the payload, not documented.
    fieldsOf<Payload>()({ id: field });
    const extra = { slug: field };
    // @ts-expect-error: `slug` is documented (here in a spread part) and not a field of the payload.
    fieldsOf<Payload>()({ id: field, name: field, ...extra });
  });

  it('documents every record the API answers', () => {
    expect(Object.keys(TEC_SCHEMAS)).toEqual(
      expect.arrayContaining(['Event', 'Venue', 'Organizer', 'Term']),
    );
  });
});
