import { useCallback, useEffect, useState } from 'react';
import {
  Card,
  CardContent,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import {
  AutocompleteArrayInput,
  BooleanField,
  BooleanInput,
  Button,
  Create,
  Datagrid,
  Edit,
  List,
  SelectField,
  SelectInput,
  SimpleForm,
  TextField,
  TextInput,
  required,
  useLocaleState,
  useNotify,
  useRecordContext,
  useRedirect,
  useTranslate,
  type RaRecord,
} from 'react-admin';
import ReplayIcon from '@mui/icons-material/Replay';
import { EVENT_TYPES } from '../../src/docs/webhook-event-types';
import { api } from './api';
import { LANGUAGE_CHOICES } from './event-list';

const TYPES = EVENT_TYPES.map((id) => ({ id, name: id }));
const STATES = ['active', 'failing', 'paused'].map((id) => ({ id, name: `cal.webhooks.${id}` }));

/** A subscription's fields (CONTRACT "Webhooks"); the server checks the address it may call. */
const WebhookForm = () => (
  <SimpleForm warnWhenUnsavedChanges>
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

/** A subscription's last deliveries, newest first, each with "redeliver" (the API's replay). */
function Deliveries() {
  const record = useRecordContext();
  const translate = useTranslate();
  const notify = useNotify();
  const [locale] = useLocaleState();
  const [rows, setRows] = useState<Delivery[]>([]);
  const load = useCallback(async () => {
    if (!record) return;
    const { body } = await api<{ deliveries: Delivery[] }>(
      `/webhooks/${record.id}/deliveries?per_page=20`,
    );
    setRows(body.deliveries);
  }, [record]);
  useEffect(() => {
    load().catch((error: Error) => notify(error.message, { type: 'error' }));
  }, [load, notify]);
  const replay = async (delivery: Delivery) => {
    try {
      await api(`/webhooks/${record!.id}/deliveries/${delivery.id}/replay`, { method: 'POST' });
      notify('cal.webhooks.replayed', { type: 'success' });
      await load();
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
      </CardContent>
    </Card>
  );
}

export const WebhookEdit = () => (
  <Edit mutationMode="pessimistic">
    <WebhookForm />
    <Deliveries />
  </Edit>
);
