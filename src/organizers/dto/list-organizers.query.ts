import { linkedListQuery } from '../../linked/linked-list.query.js';

/** `GET /organizers` (BEHAVIOR §5.3). */
export class ListOrganizersQuery extends linkedListQuery('organizers') {}
