import {
  Datagrid,
  List,
  SearchInput,
  SimpleForm,
  TextField,
  TextInput,
  required,
} from 'react-admin';
import { formScreens } from './form-screens';

/** Venues and organizers: a list with search, and a form of their main fields. */
const linked = (name: 'venue' | 'organizer', fields: string[]) => {
  const filters = [<SearchInput key="search" source="search" alwaysOn />];
  const Form = () => (
    <SimpleForm warnWhenUnsavedChanges>
      <TextInput source={name} validate={required()} fullWidth />
      {fields.map((field) => (
        <TextInput key={field} source={field} />
      ))}
      <TextInput source="description" multiline fullWidth />
    </SimpleForm>
  );
  return {
    list: () => (
      <List filters={filters}>
        <Datagrid rowClick="edit" bulkActionButtons={false}>
          <TextField source={name} sortable={false} />
          <TextField source={fields[0]} sortable={false} />
        </Datagrid>
      </List>
    ),
    ...formScreens(Form),
  };
};

export const venues = linked('venue', ['city', 'address', 'country', 'zip', 'phone', 'website']);
export const organizers = linked('organizer', ['email', 'phone', 'website']);
