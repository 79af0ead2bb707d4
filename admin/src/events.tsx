import { useMemo, useState } from 'react';
import { Alert, Button } from '@mui/material';
import SaveIcon from '@mui/icons-material/Save';
import { useWatch } from 'react-hook-form';
import {
  AutocompleteArrayInput,
  AutocompleteInput,
  BooleanInput,
  Create,
  Edit,
  ReferenceArrayInput,
  ReferenceInput,
  SelectInput,
  SaveButton,
  SimpleForm,
  TextInput,
  Toolbar,
  DeleteButton,
  required,
  useDataProvider,
  useLocaleState,
  useRecordContext,
  useTranslate,
  type RaRecord,
} from 'react-admin';
import { fromInput, nextFullHour, toInput } from './dates';
import { isOccurrence, UpdateTypeDialog } from './occurrence';
import { DateHint, RecurrenceInput } from './recurrence';
import { STATUSES } from './event-list';

const dateInput = { type: 'datetime-local', format: toInput, parse: fromInput } as const;
const dayInput = (time: string) =>
  ({
    type: 'date',
    format: (value: unknown) => (typeof value === 'string' ? value.slice(0, 10) : ''),
    parse: (value: unknown) => (typeof value === 'string' && value ? `${value} ${time}` : ''),
  }) as const;

/** Start and end: dates and times, or dates alone for an all-day event. */
function EventDates() {
  const allDay = Boolean(useWatch({ name: 'all_day' }));
  const start: unknown = useWatch({ name: 'start_date' });
  const end: unknown = useWatch({ name: 'end_date' });
  return (
    <>
      <TextInput
        key={`start-${allDay}`}
        source="start_date"
        validate={required()}
        helperText={<DateHint value={start} withTime={!allDay} />}
        {...(allDay ? dayInput('00:00:00') : dateInput)}
      />
      <TextInput
        key={`end-${allDay}`}
        source="end_date"
        validate={required()}
        helperText={<DateHint value={end} withTime={!allDay} />}
        {...(allDay ? dayInput('23:59:59') : dateInput)}
      />
    </>
  );
}

/** Every IANA zone the browser knows; empty is the site's zone. */
const ZONES = Intl.supportedValuesOf('timeZone').map((zone) => ({ id: zone, name: zone }));

function TimezoneInput() {
  const translate = useTranslate();
  const choices = useMemo(
    () => [{ id: '', name: translate('cal.timezone_site') }, ...ZONES],
    [translate],
  );
  return <AutocompleteInput source="timezone" choices={choices} translateChoice={false} />;
}

/**
 * A picker of venues, organizers or terms that creates one from what was typed (inline create):
 * the new record is written through the API and chosen at once.
 */
function usePicker(resource: string, field: string) {
  const dataProvider = useDataProvider();
  return {
    filterToQuery: (search: string) => ({ search }),
    optionText: field,
    onCreate: async (text?: string) => {
      const name = (text ?? '').trim();
      if (!name) return undefined;
      const { data } = await dataProvider.create(resource, { data: { [field]: name } });
      return data;
    },
  };
}

/** Save for an occurrence: first the question "this / this and following / all". */
function EventToolbar() {
  const record = useRecordContext();
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  if (!isOccurrence(record?.id)) return <Toolbar />;
  return (
    <Toolbar sx={{ gap: 1 }}>
      <Button variant="contained" startIcon={<SaveIcon />} onClick={() => setOpen(true)}>
        {translate('ra.action.save')}
      </Button>
      <UpdateTypeDialog
        open={open}
        onClose={() => setOpen(false)}
        choice={(type, label) => (
          <SaveButton
            key={type}
            type="button"
            label={label}
            icon={<></>}
            variant={type === 'single' ? 'contained' : 'outlined'}
            alwaysEnable
            transform={(data) => ({ ...data, _tec_update_type: type })}
          />
        )}
      />
      <DeleteButton mutationMode="pessimistic" label="cal.occurrence.cancel" />
    </Toolbar>
  );
}

/** A note on an occurrence's form: a change may apply to it alone, or to more. */
function OccurrenceNote() {
  const record = useRecordContext();
  const translate = useTranslate();
  if (!isOccurrence(record?.id)) return null;
  return <Alert severity="info">{translate('cal.occurrence.note')}</Alert>;
}

/** Every field of the API's event; the API validates and answers in the console's language. */
function EventForm({ defaults }: { defaults?: () => Record<string, unknown> }) {
  const venue = usePicker('venues', 'venue');
  const organizer = usePicker('organizers', 'organizer');
  const category = usePicker('categories', 'name');
  const tag = usePicker('tags', 'name');
  return (
    <SimpleForm warnWhenUnsavedChanges defaultValues={defaults} toolbar={<EventToolbar />}>
      <OccurrenceNote />
      <TextInput source="title" validate={required()} fullWidth />
      <SelectInput source="status" choices={STATUSES} />
      <EventDates />
      <BooleanInput source="all_day" />
      <TimezoneInput />
      <RecurrenceInput />
      <TextInput source="description" multiline minRows={4} fullWidth />
      <TextInput source="excerpt" multiline fullWidth />
      <ReferenceInput source="venue_id" reference="venues">
        <AutocompleteInput {...venue} />
      </ReferenceInput>
      <ReferenceArrayInput source="organizer_ids" reference="organizers">
        <AutocompleteArrayInput {...organizer} />
      </ReferenceArrayInput>
      <ReferenceArrayInput source="category_ids" reference="categories">
        <AutocompleteArrayInput {...category} />
      </ReferenceArrayInput>
      <ReferenceArrayInput source="tag_ids" reference="tags">
        <AutocompleteArrayInput {...tag} />
      </ReferenceArrayInput>
      <TextInput source="cost" />
      <TextInput source="website" type="url" fullWidth />
      <TextInput source="image_url" type="url" fullWidth />
      <BooleanInput source="featured" />
      <BooleanInput source="sticky" />
      <BooleanInput source="hide_from_listings" />
      <BooleanInput source="show_map" />
      <BooleanInput source="show_map_link" />
      <TextInput source="slug" />
      <TextInput source="password" type="password" autoComplete="new-password" />
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

/** A new event: a draft from the next full hour, for an hour, so that a title alone saves. */
export function EventCreate() {
  return (
    <Create redirect="edit">
      <EventForm
        defaults={() => ({ status: 'draft', all_day: false, recurrence: null, ...nextFullHour() })}
      />
    </Create>
  );
}
