import { useCallback, useEffect, useState } from 'react';
import {
  Alert,
  Box,
  Card,
  CardContent,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField as MuiTextField,
  Typography,
} from '@mui/material';
import {
  BooleanField,
  Button,
  Create,
  Datagrid,
  DeleteWithConfirmButton,
  Edit,
  email,
  List,
  maxLength,
  minLength,
  PasswordInput,
  regex,
  required,
  SaveButton,
  SelectField,
  SelectInput,
  SimpleForm,
  TextField,
  TextInput,
  Toolbar,
  useLocaleState,
  useNotify,
  useRecordContext,
  useRedirect,
  useTranslate,
  type RaRecord,
} from 'react-admin';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import DeleteIcon from '@mui/icons-material/Delete';
import KeyIcon from '@mui/icons-material/Key';
import { ROLES } from '../../src/common/roles';
import { api } from './api';

/** The roles, named in the console's language (the server's values stay). */
const ROLE_CHOICES = ROLES.map((id) => ({ id, name: `cal.users.roles.${id}` }));

/** The server's rules (CONTRACT §2 "Users"), checked here first so a typo is said at once. */
const LOGIN = [required(), maxLength(60), regex(/^[A-Za-z0-9_.@+-]+$/, 'cal.users.login_rule')];
const CONSOLE_PASSWORD = [minLength(12, 'cal.users.password_rule'), maxLength(1000)];

/** Name, e-mail, role and a new console password: what a create and an edit share. */
const ProfileInputs = () => (
  <>
    <TextInput source="name" validate={maxLength(250)} fullWidth />
    <TextInput source="email" type="email" validate={[email(), maxLength(100)]} fullWidth />
    <SelectInput source="role" choices={ROLE_CHOICES} validate={required()} />
  </>
);

export const UserList = () => (
  <List exporter={false} empty={false}>
    <Datagrid rowClick="edit" bulkActionButtons={false}>
      <TextField source="username" sortable={false} />
      <TextField source="name" sortable={false} />
      <TextField source="email" sortable={false} />
      <SelectField source="role" choices={ROLE_CHOICES} sortable={false} />
      <BooleanField source="has_console_password" sortable={false} />
    </Datagrid>
  </List>
);

/** A new user: a login, a role and, to open the console, a console password. */
export function UserCreate() {
  const redirect = useRedirect();
  return (
    <Create mutationOptions={{ onSuccess: (data: RaRecord) => redirect('edit', 'users', data.id) }}>
      <SimpleForm warnWhenUnsavedChanges defaultValues={{ role: 'subscriber' }}>
        <TextInput source="username" validate={LOGIN} autoComplete="off" />
        <ProfileInputs />
        <PasswordInput
          source="password"
          validate={CONSOLE_PASSWORD}
          helperText="cal.users.password_help"
          autoComplete="new-password"
        />
      </SimpleForm>
    </Create>
  );
}

interface ApplicationPassword {
  uuid: string;
  name: string;
  created: string;
}

/**
 * The user's application passwords (for API clients; CONTRACT §2 "Users"): listed by name, created
 * with a name (the password is shown this once, with a copy button, as WordPress shows it), and
 * revoked one by one.
 */
function ApplicationPasswords() {
  const record = useRecordContext();
  const translate = useTranslate();
  const notify = useNotify();
  const [locale] = useLocaleState();
  const [rows, setRows] = useState<ApplicationPassword[]>([]);
  const [name, setName] = useState('');
  const [made, setMade] = useState<{ name: string; password: string } | null>(null);
  const load = useCallback(async () => {
    if (!record) return;
    const { body } = await api<ApplicationPassword[]>(`/users/${record.id}/application-passwords`);
    setRows(body);
  }, [record]);
  useEffect(() => {
    load().catch((error: Error) => notify(error.message, { type: 'error' }));
  }, [load, notify]);
  const fail = (error: unknown) => notify((error as Error).message, { type: 'error' });
  const create = async () => {
    try {
      const { body } = await api<ApplicationPassword & { password: string }>(
        `/users/${record!.id}/application-passwords`,
        { method: 'POST', body: JSON.stringify({ name: name.trim() }) },
      );
      setMade({ name: body.name, password: body.password });
      setName('');
      await load();
    } catch (error) {
      fail(error);
    }
  };
  const revoke = async (row: ApplicationPassword) => {
    try {
      await api(`/users/${record!.id}/application-passwords/${row.uuid}`, { method: 'DELETE' });
      notify('cal.users.revoked', { type: 'success', messageArgs: { name: row.name } });
      await load();
    } catch (error) {
      fail(error);
    }
  };
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(made!.password);
      notify('cal.users.copied', { type: 'success' });
    } catch {
      notify('cal.users.copy_failed', { type: 'warning' });
    }
  };
  const when = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <Card sx={{ mt: 2 }} component="section" aria-labelledby="application-passwords">
      <CardContent>
        <Typography component="h2" variant="h6" id="application-passwords">
          {translate('cal.users.application_passwords')}
        </Typography>
        <Typography variant="body2" sx={{ mb: 2 }}>
          {translate('cal.users.application_passwords_help')}
        </Typography>
        {made && (
          <Alert severity="success" sx={{ mb: 2 }} onClose={() => setMade(null)}>
            <Typography variant="body2" sx={{ mb: 1 }}>
              {translate('cal.users.shown_once', { name: made.name })}
            </Typography>
            <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
              <MuiTextField
                label={translate('cal.users.new_password')}
                value={made.password}
                size="small"
                slotProps={{ htmlInput: { readOnly: true, spellCheck: false } }}
                sx={{ minWidth: '20em', fontFamily: 'monospace' }}
              />
              <Button label="cal.users.copy" onClick={copy}>
                <ContentCopyIcon />
              </Button>
            </Box>
          </Alert>
        )}
        {rows.length === 0 ? (
          <Typography variant="body2">{translate('cal.users.no_application_passwords')}</Typography>
        ) : (
          <Table size="small">
            <TableHead>
              <TableRow>
                {['name', 'created', 'action'].map((key) => (
                  <TableCell key={key}>{translate(`cal.users.column.${key}`)}</TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((row) => (
                <TableRow key={row.uuid}>
                  <TableCell>{row.name}</TableCell>
                  <TableCell>{when.format(new Date(row.created))}</TableCell>
                  <TableCell>
                    <Button
                      label="cal.users.revoke"
                      color="error"
                      onClick={() => revoke(row)}
                      aria-label={translate('cal.users.revoke_named', { name: row.name })}
                    >
                      <DeleteIcon />
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
        <Box
          component="form"
          sx={{ display: 'flex', gap: 1, alignItems: 'center', mt: 2, flexWrap: 'wrap' }}
          onSubmit={(e) => {
            e.preventDefault();
            if (name.trim()) void create();
          }}
        >
          <MuiTextField
            label={translate('cal.users.app_name')}
            value={name}
            onChange={(e) => setName(e.target.value)}
            size="small"
            slotProps={{ htmlInput: { maxLength: 200 } }}
          />
          <Button
            label="cal.users.create_application_password"
            type="submit"
            disabled={!name.trim()}
          >
            <KeyIcon />
          </Button>
        </Box>
      </CardContent>
    </Card>
  );
}

/** Save, and delete for good (users have no trash), after a confirmation that says what goes. */
const UserToolbar = () => (
  <Toolbar sx={{ justifyContent: 'space-between' }}>
    <SaveButton />
    <DeleteWithConfirmButton
      label="cal.users.delete"
      confirmTitle="cal.users.delete_title"
      confirmContent="cal.users.delete_content"
    />
  </Toolbar>
);

/** A user's profile, role and console password; below, their application passwords. */
export const UserEdit = () => (
  <Edit mutationMode="pessimistic" redirect={false}>
    <SimpleForm warnWhenUnsavedChanges toolbar={<UserToolbar />}>
      <TextInput source="username" readOnly />
      <ProfileInputs />
      <PasswordInput
        source="password"
        label="cal.users.new_console_password"
        validate={CONSOLE_PASSWORD}
        helperText="cal.users.new_password_help"
        autoComplete="new-password"
      />
    </SimpleForm>
    <ApplicationPasswords />
  </Edit>
);
