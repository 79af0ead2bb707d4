import {
  AutocompleteInput,
  CreateButton,
  Datagrid,
  DeleteWithConfirmButton,
  List,
  NumberField,
  ReferenceInput,
  SaveButton,
  SearchInput,
  SimpleForm,
  TextField,
  TextInput,
  Toolbar,
  TopToolbar,
  required,
  useRecordContext,
} from 'react-admin';
import { formScreens } from './form-screens';
import { useAbilities } from './roles';

/**
 * Save, and (for a term that exists) delete it for good: terms have no trash (CONTRACT §3), so
 * the button does not say "move to the trash" as the posts' screens do, and asks first.
 */
function TermToolbar() {
  const record = useRecordContext();
  return (
    <Toolbar sx={{ justifyContent: 'space-between' }}>
      <SaveButton />
      {record?.id !== undefined && (
        <DeleteWithConfirmButton
          label="cal.terms.delete"
          confirmTitle="cal.terms.delete_title"
          confirmContent="cal.terms.delete_content"
        />
      )}
    </Toolbar>
  );
}

/**
 * Event categories and tags: a list with search and each term's number of events, and a form
 * of its name, slug, description (and a category's parent). Only editors and administrators
 * manage them (CONTRACT §2); the others see the list only.
 */
const terms = (resource: 'categories' | 'tags') => {
  const filters = [<SearchInput key="search" source="search" alwaysOn />];
  const Form = () => (
    <SimpleForm warnWhenUnsavedChanges toolbar={<TermToolbar />}>
      <TextInput source="name" validate={required()} fullWidth />
      <TextInput source="slug" />
      <TextInput source="description" multiline fullWidth />
      {resource === 'categories' && (
        <ReferenceInput source="parent" reference="categories">
          <AutocompleteInput optionText="name" filterToQuery={(search) => ({ search })} />
        </ReferenceInput>
      )}
    </SimpleForm>
  );
  return {
    list: function TermList() {
      const can = useAbilities();
      return (
        <List
          filters={filters}
          exporter={false}
          empty={false}
          actions={<TopToolbar>{can.manageTerms && <CreateButton />}</TopToolbar>}
        >
          <Datagrid rowClick={can.manageTerms ? 'edit' : false} bulkActionButtons={false}>
            <TextField source="name" sortable={false} />
            <TextField source="slug" sortable={false} />
            <NumberField source="count" sortable={false} />
          </Datagrid>
        </List>
      );
    },
    ...formScreens(Form),
  };
};

export const categories = terms('categories');
export const tags = terms('tags');
