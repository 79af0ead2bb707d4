// The authorization matrix's event, category and tag cases sent by method override
// (X-HTTP-Method-Override / _method, test/helpers/authorization-matrix.ts): a file of its own, so
// that another test worker walks them while authorization-matrix-events walks the direct ones.
import { describeAuthorizationMatrix } from '../helpers/authorization-matrix.js';

describeAuthorizationMatrix('events', { via: 'override' });
