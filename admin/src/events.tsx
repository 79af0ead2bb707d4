import {
  AutocompleteArrayInput,
  AutocompleteInput,
  BooleanInput,
  Create,
  Edit,
  ReferenceArrayInput,
  ReferenceInput,
  SelectInput,
  SimpleForm,
  TextInput,
  required,
} from 'react-admin';
import { fromInput, nextFullHour, toInput } from './dates';
import { STATUSES } from './event-list';

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
