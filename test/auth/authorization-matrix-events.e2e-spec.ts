// The authorization matrix's event, category and tag cases (test/helpers/authorization-matrix.ts);
// one file per part so that the test workers share the matrix out.
import { casesByPart, describeAuthorizationMatrix } from '../helpers/authorization-matrix.js';

describeAuthorizationMatrix('events');

describe('authorization matrix parts', () => {
  it('together walk every case of the matrix, each in one part', () => {
    const { all, parts } = casesByPart();
    expect(Object.values(parts).reduce((sum, n) => sum + n, 0)).toBe(all);
    expect(Object.values(parts).every((n) => n > 0)).toBe(true);
    // The matrix as it was when it was split; a change to the table changes this on purpose.
    expect(all).toBe(3718);
  });
});
