// The authorization matrix's organizers cases (test/helpers/authorization-matrix.ts); one file per part
// so that the test workers share the matrix out.
import { describeAuthorizationMatrix } from '../helpers/authorization-matrix.js';

describeAuthorizationMatrix('organizers');
