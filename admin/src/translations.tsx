import { useState } from 'react';
import { useParams } from 'react-router-dom';
import { Alert, Box, Card, CardActions, CardContent, Chip, Grid, Typography } from '@mui/material';
import {
  Button,
  EditButton,
  Loading,
  Title,
  useGetMany,
  useGetOne,
  useNotify,
  useRedirect,
  useTranslate,
  type RaRecord,
} from 'react-admin';
import AddIcon from '@mui/icons-material/Add';
import { apiIn, LANGUAGES, type Language } from './api';
import { When } from './event-list';

/** What a new translation starts from: the fields that read the same in every language. */
const COPIED = ['start_date', 'end_date', 'all_day', 'timezone', 'cost', 'website'] as const;

/** The texts the editor then translates, copied as a start. */
const TEXTS = ['title', 'description', 'excerpt'] as const;

/** The draft of the translation of `source` into `language`, in its group (`translation_of`). */
function translationOf(source: RaRecord): Record<string, unknown> {
  const body: Record<string, unknown> = { status: 'draft', translation_of: source.id };
  // The API refuses an empty text (a 400 on it): a text the source has not is left out.
  for (const field of TEXTS) if (source[field]) body[field] = source[field];
  for (const field of COPIED) if (source[field] !== undefined) body[field] = source[field];
  if (source.venue_id) body.venue = source.venue_id;
  if (Array.isArray(source.organizer_ids) && source.organizer_ids.length)
    body.organizer = source.organizer_ids;
  return body;
}

function Member({ record }: { record: RaRecord }) {
  const translate = useTranslate();
  return (
    <Card variant="outlined" sx={{ height: '100%' }}>
      <CardContent>
        <Typography component="h3" variant="h6">
          {String(record.title ?? '')}
        </Typography>
        <Typography variant="body2">
          <When record={record} />
        </Typography>
        <Chip
          size="small"
          sx={{ mt: 1 }}
          label={translate(`cal.status.${String(record.status)}`)}
        />
        <Typography variant="body2" sx={{ mt: 1 }}>
          {String(record.excerpt ?? '')}
        </Typography>
      </CardContent>
      <CardActions>
        <EditButton record={record} resource="events" />
      </CardActions>
    </Card>
  );
}

function Missing({ source, language }: { source: RaRecord; language: Language }) {
  const translate = useTranslate();
  const notify = useNotify();
  const redirect = useRedirect();
  const [busy, setBusy] = useState(false);
  /** Why the API refused the copy: shown on the card until the next try (a toast fades). */
  const [refused, setRefused] = useState<string>();
  const create = async () => {
    setBusy(true);
    setRefused(undefined);
    try {
      const { body } = await apiIn<{ id: number }>(language, '/events', {
        method: 'POST',
        body: JSON.stringify(translationOf(source)),
      });
      notify('cal.translations.created', { type: 'success' });
      redirect('edit', 'events', body.id);
    } catch (error) {
      setRefused((error as Error).message);
      setBusy(false);
    }
  };
  return (
    <Card variant="outlined" sx={{ height: '100%' }}>
      <CardContent>
        <Typography variant="body2">{translate('cal.translations.missing')}</Typography>
        {refused && (
          <Alert severity="error" sx={{ mt: 1 }}>
            {refused}
          </Alert>
        )}
      </CardContent>
      <CardActions>
        <Button
          label={translate('cal.translations.create', {
            language: translate(`cal.languages.${language}`),
          })}
          onClick={create}
          disabled={busy}
        >
          <AddIcon />
        </Button>
      </CardActions>
    </Card>
  );
}

/**
 * An event's translations side by side (CONTRACT §5): one column per language, each member
 * with its title, date and status, and for a language without one, the button that creates
 * it as a draft copy in the group; the editor then translates its texts.
 */
export default function TranslationsPage() {
  const { id } = useParams();
  const translate = useTranslate();
  const { data: source, isPending } = useGetOne('events', { id: Number(id) });
  const members = (source?.translations as Record<string, number> | undefined) ?? {};
  const ids = Object.values(members);
  const { data: records = [] } = useGetMany('events', { ids }, { enabled: ids.length > 0 });
  if (isPending || !source) return <Loading />;
  return (
    <Box sx={{ mt: 1 }}>
      <Title title="cal.translations.title" />
      <Typography component="h1" variant="h5" sx={{ mb: 2 }}>
        {translate('cal.translations.of', { title: String(source.title ?? '') })}
      </Typography>
      <Grid container spacing={2}>
        {LANGUAGES.map((language) => {
          const record = records.find((r) => r.id === members[language]);
          return (
            <Grid key={language} size={{ xs: 12, md: 4 }}>
              <Typography component="h2" variant="subtitle1" lang={language}>
                {translate(`cal.languages.${language}`)}
              </Typography>
              {record ? (
                <Member record={record} />
              ) : (
                <Missing source={source} language={language} />
              )}
            </Grid>
          );
        })}
      </Grid>
    </Box>
  );
}
