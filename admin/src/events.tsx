import {
  AutocompleteArrayInput,
  AutocompleteInput,
  BooleanInput,
  Create,
  Datagrid,
  Edit,
  FunctionField,
  List,
  ReferenceArrayInput,
  ReferenceInput,
  SearchInput,
  SelectField,
  SelectInput,
  SimpleForm,
  TextField,
  TextInput,
  required,
  useLocaleState,
  type RaRecord,
} from 'react-admin';
import { fromInput, nextFullHour, toInput } from './dates';

/** The statuses an event can have, and the list's "all but trash". */
const STATUSES = ['publish', 'future', 'draft', 'pending', 'private'].map((id) => ({
  id,
  name: `cal.status.${id}`,
}));
const FILTER_STATUSES = [
  { id: 'any', name: 'cal.status.any' },
  ...STATUSES,
  { id: 'trash', name: 'cal.status.trash' },
];

const filters = [
  <SearchInput key="search" source="search" alwaysOn />,
  <SelectInput
    key="status"
    source="status"
    choices={FILTER_STATUSES}
    alwaysOn
    emptyText="cal.status.any"
  />,
];

/** The start of an event in the console's language: the wall clock of its own time zone. */
function When({ record }: { record: RaRecord }) {
  const [locale] = useLocaleState();
  const value = String(record.start_date ?? '');
  const date = new Date(value.replace(' ', 'T'));
  if (Number.isNaN(date.getTime())) return <>{value}</>;
  return (
    <>
      {new Intl.DateTimeFormat(locale, {
        dateStyle: 'medium',
        timeStyle: record.all_day ? undefined : 'short',
      }).format(date)}
    </>
  );
}

export function EventList() {
  return (
    <List
      filters={filters}
      filterDefaultValues={{ status: 'any' }}
      sort={{ field: 'start_date', order: 'ASC' }}
    >
      {/* No row checkboxes: react-admin 5.15 labels them on a wrapper where ARIA forbids it
          (axe-core's aria-prohibited-attr); bulk actions are left for later. */}
      <Datagrid rowClick="edit" bulkActionButtons={false}>
        <TextField source="title" sortable={false} />
        <FunctionField
          source="start_date"
          sortable={false}
          render={(record: RaRecord) => <When record={record} />}
        />
        <SelectField
          source="status"
          choices={[...STATUSES, { id: 'trash', name: 'cal.status.trash' }]}
          sortable={false}
        />
        <TextField source="venue.venue" label="resources.events.fields.venue_id" sortable={false} />
      </Datagrid>
    </List>
  );
}

const dateInput = { type: 'datetime-local', format: toInput, parse: fromInput } as const;

/** Every field an editor sets in a day; the API validates and answers in the console's language. */
function EventForm({ defaults }: { defaults?: () => Record<string, unknown> }) {
  return (
    <SimpleForm warnWhenUnsavedChanges defaultValues={defaults}>
      <TextInput source="title" validate={required()} fullWidth />
      <SelectInput source="status" choices={STATUSES} />
      <TextInput source="start_date" validate={required()} {...dateInput} />
      <TextInput source="end_date" validate={required()} {...dateInput} />
      <BooleanInput source="all_day" />
      <TextInput source="timezone" />
      <TextInput source="description" multiline minRows={4} fullWidth />
      <TextInput source="excerpt" multiline fullWidth />
      <ReferenceInput source="venue_id" reference="venues">
        <AutocompleteInput optionText="venue" filterToQuery={(search) => ({ search })} />
      </ReferenceInput>
      <ReferenceArrayInput source="organizer_ids" reference="organizers">
        <AutocompleteArrayInput optionText="organizer" filterToQuery={(search) => ({ search })} />
      </ReferenceArrayInput>
      <ReferenceArrayInput source="category_ids" reference="categories">
        <AutocompleteArrayInput optionText="name" filterToQuery={(search) => ({ search })} />
      </ReferenceArrayInput>
      <ReferenceArrayInput source="tag_ids" reference="tags">
        <AutocompleteArrayInput optionText="name" filterToQuery={(search) => ({ search })} />
      </ReferenceArrayInput>
      <TextInput source="cost" />
      <TextInput source="website" type="url" fullWidth />
      <TextInput source="image_url" type="url" fullWidth />
      <BooleanInput source="featured" />
    </SimpleForm>
  );
}

export function EventEdit() {
  return (
    <Edit mutationMode="pessimistic">
      <EventForm />
    </Edit>
  );
}

export function EventCreate() {
  return (
    <Create redirect="edit">
      <EventForm defaults={() => ({ status: 'draft', all_day: false, ...nextFullHour() })} />
    </Create>
  );
}
