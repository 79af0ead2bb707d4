// The authorization matrix's users part (test/helpers/authorization-matrix-users.ts), by HTTP
// Basic and by the console's session cookie with its nonce.
import {
  buildUserCases,
  describeUsersAuthorizationMatrix,
} from '../helpers/authorization-matrix-users.js';

describeUsersAuthorizationMatrix('basic');
describeUsersAuthorizationMatrix('session');

describe('authorization matrix: users cases', () => {
  it('walks every route × method × role, and each write route also with a missing target and a bad body', () => {
    // 4 routes × 5 methods × 6 roles; the 8 routed methods on an id also with an id of nothing, the
    // 5 with a body also with a bad one.
    expect(buildUserCases()).toHaveLength(120 + 8 * 6 + 5 * 6);
  });
});
