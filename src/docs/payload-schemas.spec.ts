import { PAYLOAD_KEYS } from '../common/payload/tec-payload.js';
import { TEC_SCHEMAS } from './schemas.js';

// The payload types name their fields in PAYLOAD_KEYS (the compiler checks that list against
// the types); this holds the list against the documented schemas, so a field added to a type
// and not documented, or documented and not typed, fails here.
describe('the payload types and the schema list', () => {
  for (const [name, keys] of Object.entries(PAYLOAD_KEYS)) {
    it(`${name} has exactly the documented fields`, () => {
      const documented = Object.keys(
        (TEC_SCHEMAS[name] as { properties: Record<string, unknown> }).properties,
      );
      expect(Object.keys(keys).sort()).toEqual(documented.sort());
    });
  }
});
