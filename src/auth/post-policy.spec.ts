import type { Actor } from '../common/actor.js';
import {
  canCreatePosts,
  canEdit,
  canManageTerms,
  canPublish,
  canRead,
  mayAttributeTo,
  unpublishedScope,
} from './post-policy.js';
import type { Role } from '../common/roles.js';

const as = (role: Role, id = 10): Actor => ({ user: { id, login: role, role } });
const anon: Actor = { user: null };

describe('post policy (CONTRACT §2)', () => {
  it('lets everyone read published records, and unpublished ones as the table says', () => {
    const draftOfOther = { authorId: 99, status: 'draft' as const };
    const ownDraft = { authorId: 10, status: 'draft' as const };
    expect(canRead(anon, { authorId: 1, status: 'publish' })).toBe(true);
    expect(canRead(anon, ownDraft)).toBe(false);
    expect(canRead(as('subscriber'), ownDraft)).toBe(false);
    expect(canRead(as('contributor'), ownDraft)).toBe(true);
    expect(canRead(as('author'), draftOfOther)).toBe(false);
    expect(canRead(as('editor'), draftOfOther)).toBe(true);
    expect(unpublishedScope(as('administrator'))).toBe('all');
    expect(unpublishedScope(as('author'))).toBe('own');
    expect(unpublishedScope(anon)).toBe('none');
  });

  it('maps creation, publishing and term management to roles', () => {
    expect(
      [anon, as('subscriber'), as('contributor'), as('author'), as('editor')].map(canCreatePosts),
    ).toEqual([false, false, true, true, true]);
    expect(canPublish(as('contributor'))).toBe(false);
    expect(canPublish(as('author'))).toBe(true);
    expect(canManageTerms(as('author'))).toBe(false);
    expect(canManageTerms(as('editor'))).toBe(true);
  });

  it('lets contributors edit only their own unpublished records, authors their own', () => {
    expect(canEdit(as('contributor'), { authorId: 10, status: 'draft' })).toBe(true);
    expect(canEdit(as('contributor'), { authorId: 10, status: 'publish' })).toBe(false);
    expect(canEdit(as('contributor'), { authorId: 11, status: 'draft' })).toBe(false);
    expect(canEdit(as('author'), { authorId: 10, status: 'publish' })).toBe(true);
    expect(canEdit(as('author'), { authorId: 11, status: 'draft' })).toBe(false);
    expect(canEdit(as('editor'), { authorId: 11, status: 'publish' })).toBe(true);
    expect(canEdit(anon, { authorId: 0, status: 'draft' })).toBe(false);
    // A trashed record counts as unpublished for its contributor (authorization matrix).
    expect(canEdit(as('contributor'), { authorId: 10, status: 'trash' })).toBe(true);
    expect(canEdit(as('contributor'), { authorId: 11, status: 'trash' })).toBe(false);
    expect(canEdit(as('contributor'), { authorId: 10, status: 'future' })).toBe(false);
  });

  it('lets only editors and administrators name another author', () => {
    expect(mayAttributeTo(as('editor'), 11)).toBe(true);
    expect(mayAttributeTo(as('administrator'), 11)).toBe(true);
    expect(mayAttributeTo(as('author'), 10)).toBe(true);
    expect(mayAttributeTo(as('author'), 11)).toBe(false);
    expect(mayAttributeTo(as('contributor'), 10)).toBe(true);
    expect(mayAttributeTo(as('contributor'), 11)).toBe(false);
    expect(mayAttributeTo(anon, 0)).toBe(false);
  });
});
