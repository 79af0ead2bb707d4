// The authorization matrix's organizers cases sent by method override through the console's
// session (test/helpers/authorization-matrix.ts); a file of its own, so that another test worker
// walks them beside the direct ones.
import { describeAuthorizationMatrix } from '../helpers/authorization-matrix.js';

describeAuthorizationMatrix('organizers', { transport: 'session', via: 'override' });
