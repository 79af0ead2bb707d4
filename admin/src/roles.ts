import { usePermissions } from 'react-admin';

/**
 * What a role may do, as the server decides it (CONTRACT §2, WordPress's capabilities): the
 * console only hides what the server would refuse; the server stays the authority.
 */
export interface Abilities {
  /** Publish an event (approve a submission): administrators, editors, authors. */
  publish: boolean;
  /** Edit others' events (the review queue, others' trash): administrators and editors. */
  editOthers: boolean;
  /** Categories and tags: administrators and editors. */
  manageTerms: boolean;
  /** Webhook subscriptions: administrators. */
  administer: boolean;
}

function abilitiesOf(role: unknown): Abilities {
  const editor = role === 'administrator' || role === 'editor';
  return {
    publish: editor || role === 'author',
    editOthers: editor,
    manageTerms: editor,
    administer: role === 'administrator',
  };
}

/** The abilities of the user logged in (from `/admin/session`'s role). */
export function useAbilities(): Abilities {
  const { permissions } = usePermissions();
  return abilitiesOf(permissions);
}
