// The authorization matrix's organizers cases (test/helpers/authorization-matrix.ts); one file per part
// so that the test workers share the matrix out. This part goes through the console's session
// (cookie + X-WP-Nonce; anonymous: a cookie without its nonce), the others through HTTP Basic.
import { describeAuthorizationMatrix } from '../helpers/authorization-matrix.js';

describeAuthorizationMatrix('organizers', { transport: 'session' });
