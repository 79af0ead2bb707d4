// The authorization matrix's venues cases sent by method override (test/helpers/authorization-matrix.ts);
// a file of its own, so that another test worker walks them beside the direct ones.
import { describeAuthorizationMatrix } from '../helpers/authorization-matrix.js';

describeAuthorizationMatrix('venues', { via: 'override' });
