import { useState } from 'react';
import { Alert, Box, Card, Tab, Tabs } from '@mui/material';
import {
  BulkUpdateButton,
  Datagrid,
  DateField,
  List,
  TextField,
  Title,
  UpdateButton,
  useTranslate,
} from 'react-admin';
import RestoreFromTrashIcon from '@mui/icons-material/RestoreFromTrash';
import { Selectable } from './selectable';

/** What the trash holds: events, venues and organizers (terms are deleted for good). */
const KINDS = [
  { resource: 'events', name: 'title' },
  { resource: 'venues', name: 'venue' },
  { resource: 'organizers', name: 'organizer' },
] as const;

/** Back to draft, as WordPress's "Restore" does: the editor publishes it again. */
const RESTORED = { status: 'draft' };
const restoreIcon = <RestoreFromTrashIcon />;

function TrashedList({ resource, name }: (typeof KINDS)[number]) {
  return (
    <List
      resource={resource}
      filter={{ status: 'trash' }}
      disableSyncWithLocation
      storeKey={`trash.${resource}`}
      exporter={false}
      actions={false}
      empty={false}
      title={<></>}
    >
      <Selectable>
        <Datagrid
          rowClick={false}
          bulkActionButtons={
            <BulkUpdateButton
              label="cal.trash.restore"
              data={RESTORED}
              mutationMode="pessimistic"
              icon={restoreIcon}
            />
          }
        >
          <TextField source={name} sortable={false} />
          <DateField source="modified" label="cal.trash.trashed" showTime sortable={false} />
          <UpdateButton
            label="cal.trash.restore"
            data={RESTORED}
            mutationMode="pessimistic"
            icon={restoreIcon}
          />
        </Datagrid>
      </Selectable>
    </List>
  );
}

/**
 * The trash: trashed events, venues and organizers, restored one by one or together. The API
 * never deletes them for good (CONTRACT §3): the server's `records:purge-trash` empties it.
 */
export default function TrashPage() {
  const translate = useTranslate();
  const [tab, setTab] = useState(0);
  return (
    <Card sx={{ mt: 1 }}>
      <Title title="cal.trash.title" />
      <Tabs value={tab} onChange={(_, value: number) => setTab(value)}>
        {KINDS.map(({ resource }) => (
          <Tab key={resource} label={translate(`resources.${resource}.name`, { smart_count: 2 })} />
        ))}
      </Tabs>
      <Box sx={{ p: 1 }}>
        <TrashedList key={KINDS[tab].resource} {...KINDS[tab]} />
        <Alert severity="info" sx={{ mt: 1 }}>
          {/* The command is written as code (`...`) in the catalogues. */}
          {translate('cal.trash.empty_hint')
            .split('`')
            .map((part, i) => (i % 2 ? <code key={i}>{part}</code> : part))}
        </Alert>
      </Box>
    </Card>
  );
}
