import { useMemo } from 'react';
import { useRefresh } from 'react-admin';

/**
 * Mutation options for an action that takes rows out of the list it is done in (an approval
 * out of the review queue, a restore out of the trash): the lists are read anew once the server
 * has answered. react-admin's pessimistic mode only patches the cached rows, so an approved
 * event would stay in the queue of `pending` ones, now `publish`, until a reload.
 */
export function useRereadLists() {
  const refresh = useRefresh();
  return useMemo(() => ({ onSettled: () => refresh() }), [refresh]);
}
