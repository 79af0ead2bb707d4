// The authorization matrix's events cases (test/helpers/authorization-matrix.ts); one file per part
// so that Jest's workers share the matrix out.
import { describeAuthorizationMatrix } from './helpers/authorization-matrix.js';

describeAuthorizationMatrix('events');
