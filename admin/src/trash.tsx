import { useState } from 'react';
import { Alert, Box, Card, Tab, Tabs } from '@mui/material';
import {
  BulkDeleteButton,
  BulkUpdateButton,
  Button,
  Confirm,
  Datagrid,
  DateField,
  DeleteButton,
  List,
  TextField,
  Title,
  TopToolbar,
  UpdateButton,
  useDataProvider,
  useListContext,
  useNotify,
  useRefresh,
  useTranslate,
  useUnselectAll,
} from 'react-admin';
import RestoreFromTrashIcon from '@mui/icons-material/RestoreFromTrash';
import DeleteForeverIcon from '@mui/icons-material/DeleteForever';
import { useRereadLists } from './refresh';
import { Selectable } from './selectable';

/** What the trash holds: events, venues and organizers (terms are deleted for good). */
const KINDS = [
  { resource: 'events', name: 'title' },
  { resource: 'venues', name: 'venue' },
  { resource: 'organizers', name: 'organizer' },
] as const;
type Kind = (typeof KINDS)[number];

/** Back to draft, as WordPress's "Restore" does: the editor publishes it again. */
const RESTORED = { status: 'draft' };
const restoreIcon = <RestoreFromTrashIcon />;
const deleteIcon = <DeleteForeverIcon />;
/** Records read per page when the whole trash of a kind is emptied, and pages at most. */
const EMPTY_PAGE = 100;
const EMPTY_PAGES = 100;

/**
 * The options of a permanent delete: the API's `force=true`, the list read anew, and a notice
 * that says so (react-admin's would say "moved to the trash", what a DELETE does elsewhere).
 */
function useForever(resource: string) {
  const reread = useRereadLists();
  const notify = useNotify();
  const unselectAll = useUnselectAll(resource, `trash.${resource}`);
  return {
    ...reread,
    meta: { force: true },
    onSuccess: (_data: unknown, variables: unknown) => {
      const ids = (variables as { ids?: unknown[] } | undefined)?.ids;
      notify('cal.trash.deleted', { messageArgs: { smart_count: ids?.length ?? 1 } });
      unselectAll();
    },
  };
}

/**
 * "Empty trash" for the shown kind, as WordPress's: every record of it in the trash, after a
 * confirmation that says how many; each is deleted for good through the API (`force=true`).
 */
function EmptyTrashButton({ resource }: { resource: string }) {
  const { total } = useListContext();
  const dataProvider = useDataProvider();
  const notify = useNotify();
  const refresh = useRefresh();
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const empty = async () => {
    setBusy(true);
    try {
      // The first page again each time: what was deleted has left it.
      for (let round = 0; round < EMPTY_PAGES; round++) {
        const { data } = await dataProvider.getList(resource, {
          pagination: { page: 1, perPage: EMPTY_PAGE },
          sort: { field: 'id', order: 'ASC' },
          filter: { status: 'trash' },
        });
        if (data.length === 0) break;
        await dataProvider.deleteMany(resource, {
          ids: data.map((row) => row.id),
          meta: { force: true },
        });
      }
      notify('cal.trash.emptied', { type: 'success' });
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
    } finally {
      setBusy(false);
      setOpen(false);
      refresh();
    }
  };
  return (
    <>
      <Button
        label="cal.trash.empty"
        // Named when react-admin shows it as a bare icon (a phone) while disabled, too.
        aria-label={translate('cal.trash.empty')}
        color="error"
        disabled={!total || busy}
        onClick={() => setOpen(true)}
      >
        {deleteIcon}
      </Button>
      <Confirm
        isOpen={open}
        loading={busy}
        title="cal.trash.empty_title"
        content={translate('cal.trash.empty_content', { smart_count: total ?? 0 })}
        confirm="cal.trash.delete_forever"
        confirmColor="warning"
        onConfirm={empty}
        onClose={() => setOpen(false)}
      />
    </>
  );
}

function TrashedList({ resource, name }: Kind) {
  const reread = useRereadLists();
  const forever = useForever(resource);
  return (
    <List
      resource={resource}
      filter={{ status: 'trash' }}
      disableSyncWithLocation
      storeKey={`trash.${resource}`}
      exporter={false}
      actions={
        <TopToolbar>
          <EmptyTrashButton resource={resource} />
        </TopToolbar>
      }
      empty={false}
      title={<></>}
    >
      <Selectable>
        <Datagrid
          rowClick={false}
          bulkActionButtons={
            <>
              <BulkUpdateButton
                label="cal.trash.restore"
                data={RESTORED}
                mutationMode="pessimistic"
                mutationOptions={reread}
                icon={restoreIcon}
              />
              <BulkDeleteButton
                label="cal.trash.delete_forever"
                mutationMode="pessimistic"
                mutationOptions={forever}
                confirmTitle="cal.trash.delete_title"
                confirmContent="cal.trash.bulk_delete_content"
                icon={deleteIcon}
              />
            </>
          }
        >
          <TextField source={name} sortable={false} />
          <DateField source="modified" label="cal.trash.trashed" showTime sortable={false} />
          <UpdateButton
            label="cal.trash.restore"
            data={RESTORED}
            mutationMode="pessimistic"
            mutationOptions={reread}
            icon={restoreIcon}
          />
          <DeleteButton
            label="cal.trash.delete_forever"
            mutationMode="pessimistic"
            mutationOptions={forever}
            redirect={false}
            confirmTitle="cal.trash.delete_title"
            confirmContent="cal.trash.delete_content"
            icon={deleteIcon}
          />
        </Datagrid>
      </Selectable>
    </List>
  );
}

/**
 * The trash: trashed events, venues and organizers, restored (as drafts) or deleted for good,
 * one by one, the selected ones, or all of a kind ("Empty trash"); each through the REST API
 * (`DELETE ?force=true`, CONTRACT §3) after a confirmation. The server's `records:purge-trash`
 * empties it from the command line.
 */
export default function TrashPage() {
  const translate = useTranslate();
  const [tab, setTab] = useState(0);
  return (
    <Card sx={{ mt: 1 }}>
      <Title title="cal.trash.title" />
      {/* On a phone the tabs scroll in their own box (which adds no width to the page). */}
      <Box sx={{ width: { xs: 0, sm: 'auto' }, minWidth: { xs: '100%', sm: 0 } }}>
        <Tabs value={tab} onChange={(_, value: number) => setTab(value)} variant="scrollable">
          {KINDS.map(({ resource }) => (
            <Tab
              key={resource}
              label={translate(`resources.${resource}.name`, { smart_count: 2 })}
            />
          ))}
        </Tabs>
      </Box>
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
