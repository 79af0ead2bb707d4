import { useCallback, useEffect, useState, type ReactElement } from 'react';
import {
  Card,
  CardContent,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TablePagination,
  TableRow,
  Typography,
} from '@mui/material';
import {
  AutocompleteArrayInput,
  BooleanField,
  BooleanInput,
  Button,
  Confirm,
  Create,
  Datagrid,
  DeleteButton,
  Edit,
  List,
  SelectField,
  SaveButton,
  SelectInput,
  SimpleForm,
  TextField,
  TextInput,
  Toolbar,
  TopToolbar,
  required,
  useLocaleState,
  useNotify,
  useRecordContext,
  useRedirect,
  useTranslate,
  type RaRecord,
} from 'react-admin';
import ReplayIcon from '@mui/icons-material/Replay';
import KeyIcon from '@mui/icons-material/Key';
import { EVENT_TYPES } from '../../src/docs/webhook-event-types';
import { api } from './api';
import { LANGUAGE_CHOICES } from './event-list';

const TYPES = EVENT_TYPES.map((id) => ({ id, name: id }));
const STATES = ['active', 'failing', 'paused'].map((id) => ({ id, name: `cal.webhooks.${id}` }));

/**
 * Save, and delete: a subscription is deleted for good with its delivery log (react-admin's
 * "delete" reads "move to trash" in this console, what a DELETE of an event does).
 */
function WebhookToolbar() {
  const notify = useNotify();
  const redirect = useRedirect();
  return (
    <Toolbar sx={{ justifyContent: 'space-between' }}>
      <SaveButton />
      <DeleteButton
        label="cal.webhooks.delete"
        confirmTitle="cal.webhooks.delete"
        confirmContent="cal.webhooks.delete_content"
        mutationMode="pessimistic"
        mutationOptions={{
          onSuccess: () => {
            notify('cal.webhooks.deleted');
            redirect('list', 'webhooks');
          },
        }}
      />
    </Toolbar>
  );
}

/** A subscription's fields (CONTRACT "Webhooks"); the server checks the address it may call. */
const WebhookForm = ({ toolbar }: { toolbar?: ReactElement }) => (
  <SimpleForm warnWhenUnsavedChanges toolbar={toolbar}>
    <TextInput source="url" type="url" validate={required()} fullWidth />
    <AutocompleteArrayInput source="events" choices={TYPES} validate={required()} />
    <SelectInput source="language" choices={LANGUAGE_CHOICES} emptyText="cal.webhooks.any" />
    <BooleanInput source="include_private" />
    <BooleanInput source="active" />
  </SimpleForm>
);

export const WebhookList = () => (
  <List exporter={false} pagination={false} empty={false}>
    <Datagrid rowClick="edit" bulkActionButtons={false}>
      <TextField source="url" sortable={false} />
      <TextField source="events" sortable={false} />
      <SelectField source="status" choices={STATES} sortable={false} />
      <BooleanField source="active" sortable={false} />
    </Datagrid>
  </List>
);

/** The signing secret is shown once, when the subscription is created (as the API answers it). */
export function WebhookCreate() {
  const notify = useNotify();
  const redirect = useRedirect();
  return (
    <Create
      mutationOptions={{
        onSuccess: (data: RaRecord) => {
          notify('cal.webhooks.secret', {
            messageArgs: { secret: String(data.secret ?? '') },
            autoHideDuration: null,
          });
          redirect('edit', 'webhooks', data.id);
        },
      }}
    >
      <WebhookForm />
    </Create>
  );
}

interface Delivery {
  id: number;
  type: string;
  kind: string;
  record_id: number;
  status: string;
  attempts: number;
  response_status: number | null;
  failure_reason: string | null;
  created: string;
}

/** Deliveries per page, as the API pages them (`page`, `per_page`, `total` in the body). */
const PER_PAGE = 20;

/** A subscription's deliveries, newest first, a page at a time, each with "redeliver" (the API's replay). */
function Deliveries() {
  const record = useRecordContext();
  const translate = useTranslate();
  const notify = useNotify();
  const [locale] = useLocaleState();
  const [rows, setRows] = useState<Delivery[]>([]);
  const [total, setTotal] = useState(0);
  const [page, setPage] = useState(0);
  const load = useCallback(async () => {
    if (!record) return;
    const { body } = await api<{ deliveries: Delivery[]; total: number }>(
      `/webhooks/${record.id}/deliveries?per_page=${PER_PAGE}&page=${page + 1}`,
    );
    setRows(body.deliveries);
    setTotal(Number(body.total ?? body.deliveries.length));
  }, [record, page]);
  useEffect(() => {
    load().catch((error: Error) => notify(error.message, { type: 'error' }));
  }, [load, notify]);
  const replay = async (delivery: Delivery) => {
    try {
      await api(`/webhooks/${record!.id}/deliveries/${delivery.id}/replay`, { method: 'POST' });
      notify('cal.webhooks.replayed', { type: 'success' });
      // The new delivery is the newest: the first page shows it.
      if (page === 0) await load();
      else setPage(0);
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
    }
  };
  const when = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <Card sx={{ mt: 2 }}>
      <CardContent>
        <Typography component="h2" variant="h6">
          {translate('cal.webhooks.deliveries')}
        </Typography>
        {rows.length === 0 ? (
          <Typography variant="body2">{translate('cal.webhooks.no_deliveries')}</Typography>
        ) : (
          <Table size="small">
            <TableHead>
              <TableRow>
                {['created', 'type', 'record', 'status', 'attempts', 'response', 'action'].map(
                  (key) => (
                    <TableCell key={key}>{translate(`cal.webhooks.column.${key}`)}</TableCell>
                  ),
                )}
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((row) => (
                <TableRow key={row.id}>
                  <TableCell>{when.format(new Date(row.created))}</TableCell>
                  <TableCell>{row.type}</TableCell>
                  <TableCell>{`${row.kind} ${row.record_id}`}</TableCell>
                  <TableCell>{translate(`cal.webhooks.delivery.${row.status}`)}</TableCell>
                  <TableCell>{row.attempts.toLocaleString(locale)}</TableCell>
                  <TableCell>{row.failure_reason ?? row.response_status ?? ''}</TableCell>
                  <TableCell>
                    <Button label="cal.webhooks.replay" onClick={() => replay(row)}>
                      <ReplayIcon />
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
        {total > PER_PAGE && (
          <TablePagination
            component="div"
            count={total}
            page={page}
            rowsPerPage={PER_PAGE}
            rowsPerPageOptions={[PER_PAGE]}
            onPageChange={(_, next: number) => setPage(next)}
            labelDisplayedRows={({ from, to, count }) =>
              translate('ra.navigation.page_range_info', {
                offsetBegin: from.toLocaleString(locale),
                offsetEnd: to.toLocaleString(locale),
                total: count.toLocaleString(locale),
              })
            }
            getItemAriaLabel={(type) =>
              translate(type === 'previous' ? 'ra.navigation.previous' : 'ra.navigation.next')
            }
          />
        )}
      </CardContent>
    </Card>
  );
}

/**
 * "Rotate secret" (the API's `rotate-secret`), after a confirmation: the new secret is shown
 * once, as at creation; the previous one keeps signing for the server's grace period.
 */
function RotateSecretButton() {
  const record = useRecordContext();
  const notify = useNotify();
  const [locale] = useLocaleState();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const rotate = async () => {
    setBusy(true);
    try {
      const { body } = await api<{ secret: string; previous_secret_expires: string | null }>(
        `/webhooks/${record!.id}/rotate-secret`,
        { method: 'POST' },
      );
      const expires = body.previous_secret_expires
        ? new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(
            new Date(body.previous_secret_expires),
          )
        : '';
      notify('cal.webhooks.rotated', {
        messageArgs: { secret: body.secret, expires },
        autoHideDuration: null,
      });
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
    } finally {
      setBusy(false);
      setOpen(false);
    }
  };
  if (!record) return null;
  return (
    <>
      <Button label="cal.webhooks.rotate" onClick={() => setOpen(true)} disabled={busy}>
        <KeyIcon />
      </Button>
      <Confirm
        isOpen={open}
        loading={busy}
        title="cal.webhooks.rotate_title"
        content="cal.webhooks.rotate_content"
        confirm="cal.webhooks.rotate"
        onConfirm={rotate}
        onClose={() => setOpen(false)}
      />
    </>
  );
}

export const WebhookEdit = () => (
  <Edit
    mutationMode="pessimistic"
    actions={
      <TopToolbar>
        <RotateSecretButton />
      </TopToolbar>
    }
  >
    <WebhookForm toolbar={<WebhookToolbar />} />
    <Deliveries />
  </Edit>
);
