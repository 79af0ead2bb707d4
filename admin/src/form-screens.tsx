import type { ComponentType } from 'react';
import { Create, Edit } from 'react-admin';

/**
 * A record's edit and create screens around one form: an edit waits for the server's answer (a
 * refusal keeps the form as typed); a created record returns to the list.
 */
export function formScreens(Form: ComponentType) {
  return {
    edit: () => (
      <Edit mutationMode="pessimistic">
        <Form />
      </Edit>
    ),
    create: () => (
      <Create redirect="list">
        <Form />
      </Create>
    ),
  };
}
