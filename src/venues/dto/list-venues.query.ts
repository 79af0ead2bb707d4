import { linkedListQuery } from '../../linked/linked-list.query.js';

/** `GET /venues` (BEHAVIOR §5.3). */
export class ListVenuesQuery extends linkedListQuery('venues') {}
