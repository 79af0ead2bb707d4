import {
  AutocompleteArrayInput,
  AutocompleteInput,
  BulkDeleteButton,
  BulkUpdateButton,
  Button,
  Datagrid,
  DateInput,
  FunctionField,
  List,
  ReferenceArrayInput,
  ReferenceInput,
  SearchInput,
  SelectField,
  SelectInput,
  TextField,
  useListContext,
  useLocaleState,
  useTranslate,
  type RaRecord,
} from 'react-admin';
import { useWatch } from 'react-hook-form';
import { Link } from 'react-router-dom';
import RestoreFromTrashIcon from '@mui/icons-material/RestoreFromTrash';
import PublishIcon from '@mui/icons-material/Publish';
import TranslateIcon from '@mui/icons-material/Translate';
import { LANGUAGES } from './api';
import { useAbilities } from './roles';
import { Selectable } from './selectable';
import { DateHint } from './recurrence';

/** The statuses an event can have, and the list's "all but trash". */
export const STATUSES = ['publish', 'future', 'draft', 'pending', 'private'].map((id) => ({
  id,
  name: `cal.status.${id}`,
}));
const FILTER_STATUSES = [
  { id: 'any', name: 'cal.status.any' },
  ...STATUSES,
  { id: 'trash', name: 'cal.status.trash' },
];
export const LANGUAGE_CHOICES = LANGUAGES.map((id) => ({ id, name: `cal.languages.${id}` }));

/** Search, and the filters an editor narrows the list by (the API's list parameters). */
const filters = [
  <SearchInput key="search" source="search" alwaysOn />,
  <SelectInput
    key="status"
    source="status"
    choices={FILTER_STATUSES}
    alwaysOn
    emptyText="cal.status.any"
  />,
  <SelectInput key="language" source="language" choices={LANGUAGE_CHOICES} />,
  <ReferenceArrayInput key="categories" source="categories" reference="categories">
    <AutocompleteArrayInput
      optionText="name"
      label="resources.events.fields.category_ids"
      filterToQuery={(search) => ({ search })}
    />
  </ReferenceArrayInput>,
  <ReferenceArrayInput key="tags" source="tags" reference="tags">
    <AutocompleteArrayInput
      optionText="name"
      label="resources.events.fields.tag_ids"
      filterToQuery={(search) => ({ search })}
    />
  </ReferenceArrayInput>,
  <ReferenceInput key="venue" source="venue" reference="venues">
    <AutocompleteInput
      optionText="venue"
      label="resources.events.fields.venue_id"
      filterToQuery={(search) => ({ search })}
    />
  </ReferenceInput>,
  <DateInput key="from" source="from" helperText={<FilterDateHint source="from" />} />,
  <DateInput key="until" source="until" helperText={<FilterDateHint source="until" />} />,
];

/** A date filter's day in the console's language (the browser's date field has its own format). */
function FilterDateHint({ source }: { source: string }) {
  const value: unknown = useWatch({ name: source });
  return <DateHint value={value} withTime={false} />;
}

/** The start of an event in the console's language: the wall clock of its own time zone. */
export function When({ record }: { record: RaRecord }) {
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

/** The languages an event exists in, and the link to its translations side by side. */
function Languages({ record }: { record: RaRecord }) {
  const translate = useTranslate();
  const present = Object.keys((record.translations as Record<string, number>) ?? {});
  const own = String(record.language ?? '');
  const all = [...new Set([own, ...present])].filter(Boolean).sort();
  return (
    <Button
      component={Link}
      to={`/events/${record.id}/translations`}
      onClick={(e) => e.stopPropagation()}
      label={all.join(' · ').toUpperCase() || translate('cal.translations.title')}
    >
      <TranslateIcon />
    </Button>
  );
}

/**
 * Bulk actions by what the user may do: trash (anyone who edits), publish (those who may
 * publish), and restore in the trash (back to draft, as WordPress's untrash).
 */
function BulkActions() {
  const { filterValues } = useListContext();
  const can = useAbilities();
  if (filterValues.status === 'trash')
    return (
      <BulkUpdateButton
        label="cal.trash.restore"
        data={{ status: 'draft' }}
        mutationMode="pessimistic"
        icon={<RestoreFromTrashIcon />}
      />
    );
  return (
    <>
      {can.publish && (
        <BulkUpdateButton
          label="cal.bulk.publish"
          data={{ status: 'publish' }}
          mutationMode="pessimistic"
          icon={<PublishIcon />}
        />
      )}
      <BulkDeleteButton mutationMode="pessimistic" />
    </>
  );
}

export function EventList() {
  return (
    <List
      filters={filters}
      filterDefaultValues={{ status: 'any' }}
      empty={false}
      sort={{ field: 'start_date', order: 'ASC' }}
    >
      <Selectable>
        <Datagrid rowClick="edit" bulkActionButtons={<BulkActions />}>
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
          <TextField
            source="venue.venue"
            label="resources.events.fields.venue_id"
            sortable={false}
          />
          <FunctionField
            source="translations"
            sortable={false}
            render={(record: RaRecord) => <Languages record={record} />}
          />
        </Datagrid>
      </Selectable>
    </List>
  );
}
