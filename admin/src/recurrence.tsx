import { useEffect, useState, type ReactNode } from 'react';
import {
  Alert,
  Box,
  Button,
  Chip,
  FormControlLabel,
  MenuItem,
  Radio,
  RadioGroup,
  Stack,
  Switch,
  TextField,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import { useInput, useLocaleState, useTranslate } from 'react-admin';
import { useWatch } from 'react-hook-form';
import { api } from './api';
import { toInput, fromInput } from './dates';
import {
  defaultRule,
  formatRule,
  FREQUENCIES,
  nthWeekdayOf,
  parseRule,
  WEEKDAYS,
  type Ending,
  type RuleParts,
} from './rrule';

/** What the API's `recurrence` parameter takes (CONTRACT §9); null: the event does not repeat. */
export interface Series {
  rules: string[];
  exdates: string[];
  rdates: string[];
}

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

/** The payload's `recurrence` (with its description and next dates) as the parameter takes it. */
export function asSeries(value: unknown): Series | null {
  if (!value || typeof value !== 'object') return null;
  const raw = value as Record<string, unknown>;
  const series = {
    rules: strings(raw.rules),
    exdates: strings(raw.exdates),
    rdates: strings(raw.rdates),
  };
  return series.rules.length || series.rdates.length ? series : null;
}

/** Local wall clocks (`YYYY-MM-DD[ HH:MM:SS]`) in the console's language ('' if none can be read). */
function useDateText() {
  const [locale] = useLocaleState();
  return (value: string, withTime = value.length > 10) => {
    const date = new Date(value.length > 10 ? value.replace(' ', 'T') : `${value}T00:00`);
    if (Number.isNaN(date.getTime())) return '';
    return new Intl.DateTimeFormat(locale, {
      dateStyle: 'full',
      timeStyle: withTime ? 'short' : undefined,
    }).format(date);
  };
}

/**
 * A date field's value written out in the console's language, under the field: the browser's
 * own date fields show the browser's format (mm/dd/yyyy in an English browser), whatever the
 * console's language, so the console says which day it is in its own words.
 */
export function DateHint({ value, withTime }: { value: unknown; withTime?: boolean }) {
  const text = useDateText();
  return (
    <span data-testid="date-hint">
      {typeof value === 'string' && value ? text(value, withTime) : ''}
    </span>
  );
}

/** A list of dates (exclusions or added dates): a field to add one, chips to remove one. */
function DateList(props: {
  label: string;
  type: 'date' | 'datetime-local';
  dates: string[];
  onChange: (dates: string[]) => void;
}) {
  const translate = useTranslate();
  const text = useDateText();
  const [draft, setDraft] = useState('');
  const add = () => {
    const value = props.type === 'date' ? draft : fromInput(draft);
    if (value && !props.dates.includes(value)) props.onChange([...props.dates, value].sort());
    setDraft('');
  };
  return (
    <Box component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
      <Typography component="legend" variant="subtitle2">
        {props.label}
      </Typography>
      <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', gap: 1, my: 1 }}>
        {props.dates.map((date) => (
          <Chip
            key={date}
            label={text(date)}
            onDelete={() => props.onChange(props.dates.filter((d) => d !== date))}
          />
        ))}
      </Stack>
      <Stack direction="row" sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 1 }}>
        <TextField
          size="small"
          type={props.type}
          value={props.type === 'date' ? draft : toInput(draft) || draft}
          helperText={
            draft ? (
              <DateHint value={props.type === 'date' ? draft : fromInput(draft)} />
            ) : undefined
          }
          onChange={(e) => setDraft(e.target.value)}
          slotProps={{ htmlInput: { 'aria-label': props.label } }}
        />
        <Button onClick={add} disabled={!draft}>
          {translate('cal.recurrence.add_date')}
        </Button>
      </Stack>
    </Box>
  );
}

/** The builder of the first rule: frequency, interval, days, end. */
function RuleBuilder({
  rule,
  start,
  onChange,
}: {
  rule: RuleParts;
  start: string;
  onChange: (rule: RuleParts) => void;
}) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const dayName = (i: number, style: 'short' | 'long') =>
    new Intl.DateTimeFormat(locale, { weekday: style, timeZone: 'UTC' }).format(
      new Date(Date.UTC(2024, 0, 1 + i)),
    );
  const set = (change: Partial<RuleParts>) => onChange({ ...rule, ...change });
  return (
    <Stack spacing={2}>
      <Stack direction="row" spacing={2} sx={{ flexWrap: 'wrap', gap: 2 }}>
        <TextField
          select
          label={translate('cal.recurrence.frequency')}
          value={rule.freq}
          onChange={(e) =>
            set({
              freq: e.target.value as RuleParts['freq'],
              byDay: e.target.value === 'WEEKLY' ? rule.byDay : [],
            })
          }
          sx={{ minWidth: 160 }}
        >
          {FREQUENCIES.map((f) => (
            <MenuItem key={f} value={f}>
              {translate(`cal.recurrence.freq.${f}`)}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          type="number"
          label={translate('cal.recurrence.interval')}
          helperText={translate(`cal.recurrence.unit.${rule.freq}`, { smart_count: rule.interval })}
          value={rule.interval}
          onChange={(e) => set({ interval: Math.max(1, Math.min(1000, +e.target.value || 1)) })}
          slotProps={{ htmlInput: { min: 1, max: 1000 } }}
          sx={{ width: 140 }}
        />
      </Stack>
      {rule.freq === 'WEEKLY' && (
        <ToggleButtonGroup
          value={rule.byDay}
          onChange={(_, days: string[]) => set({ byDay: WEEKDAYS.filter((d) => days.includes(d)) })}
          aria-label={translate('cal.recurrence.days')}
          size="small"
          sx={{ flexWrap: 'wrap' }}
        >
          {WEEKDAYS.map((day, i) => (
            <ToggleButton key={day} value={day} title={dayName(i, 'long')}>
              {dayName(i, 'short')}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
      )}
      {rule.freq === 'MONTHLY' && (
        <RadioGroup
          aria-label={translate('cal.recurrence.monthly')}
          value={rule.byDay.length ? 'weekday' : 'day'}
          onChange={(e) =>
            set({ byDay: e.target.value === 'weekday' ? [nthWeekdayOf(start)] : [] })
          }
        >
          <FormControlLabel
            value="day"
            control={<Radio />}
            label={translate('cal.recurrence.monthly_day')}
          />
          <FormControlLabel
            value="weekday"
            control={<Radio />}
            label={translate('cal.recurrence.monthly_weekday')}
          />
        </RadioGroup>
      )}
      <RadioGroup
        aria-label={translate('cal.recurrence.ends')}
        value={rule.ending}
        onChange={(e) => set({ ending: e.target.value as Ending })}
      >
        <FormControlLabel
          value="never"
          control={<Radio />}
          label={translate('cal.recurrence.ends_never')}
        />
        <Stack direction="row" sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 1 }}>
          <FormControlLabel
            value="count"
            control={<Radio />}
            label={translate('cal.recurrence.ends_count')}
          />
          <TextField
            type="number"
            size="small"
            disabled={rule.ending !== 'count'}
            value={rule.count}
            onChange={(e) => set({ count: Math.max(1, +e.target.value || 1) })}
            slotProps={{
              htmlInput: { min: 1, max: 1000, 'aria-label': translate('cal.recurrence.count') },
            }}
            sx={{ width: 110 }}
          />
        </Stack>
        <Stack direction="row" sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 1 }}>
          <FormControlLabel
            value="until"
            control={<Radio />}
            label={translate('cal.recurrence.ends_until')}
          />
          <TextField
            type="date"
            size="small"
            disabled={rule.ending !== 'until'}
            value={rule.until}
            helperText={rule.ending === 'until' ? <DateHint value={rule.until} /> : undefined}
            onChange={(e) => set({ until: e.target.value })}
            slotProps={{ htmlInput: { 'aria-label': translate('cal.recurrence.until') } }}
          />
        </Stack>
      </RadioGroup>
    </Stack>
  );
}

interface Preview {
  description: string;
  next: Array<{ start_date: string }>;
}

/**
 * The series in words and its next dates, from the server (GET /recurrence, CONTRACT §9): the
 * same sentence and dates the saved event's payload shows, in the console's language.
 */
function RecurrencePreview({ series }: { series: Series }) {
  const translate = useTranslate();
  const text = useDateText();
  const [start, end, allDay, timezone] = useWatch({
    name: ['start_date', 'end_date', 'all_day', 'timezone'],
  }) as [string, string, boolean, string];
  const [shown, setShown] = useState<{ preview?: Preview; error?: string }>({});
  const key = JSON.stringify([series, start, end, allDay, timezone]);
  useEffect(() => {
    if (!start || !end) return undefined;
    const abort = new AbortController();
    const params = new URLSearchParams({
      recurrence: JSON.stringify(series),
      start_date: start,
      end_date: end,
      all_day: allDay ? 'true' : 'false',
    });
    if (timezone) params.set('timezone', timezone);
    // A short pause, so that typing a number asks once.
    const timer = setTimeout(() => {
      api<Preview>(`/recurrence?${params}`, { signal: abort.signal })
        .then(({ body }) => setShown({ preview: body }))
        .catch((error: Error) => {
          if (!abort.signal.aborted) setShown({ error: error.message });
        });
    }, 300);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
    // `key` holds every input of the request.
  }, [key]);
  if (shown.error) return <Alert severity="error">{shown.error}</Alert>;
  if (!shown.preview) return null;
  return (
    <Box aria-live="polite" data-testid="recurrence-preview">
      <Typography>
        <strong>{translate('cal.recurrence.in_words')}</strong> {shown.preview.description}
      </Typography>
      <Typography variant="subtitle2" component="h3" sx={{ mt: 1 }}>
        {translate('cal.recurrence.next')}
      </Typography>
      <ul>
        {shown.preview.next.map((o) => (
          <li key={o.start_date}>{text(o.start_date, !allDay)}</li>
        ))}
      </ul>
    </Box>
  );
}

const Section = ({ children }: { children: ReactNode }) => (
  <Box
    sx={{
      border: 1,
      borderColor: 'divider',
      borderRadius: 1,
      p: 2,
      my: 1,
      width: '100%',
      boxSizing: 'border-box',
    }}
  >
    {children}
  </Box>
);

/**
 * The recurrence editor (issue 51): a builder that writes the first RRULE (frequency, interval,
 * days, count or end date), the rules as text for what the builder does not offer, exclusions
 * and added dates, and the server's preview. Its value is the API's `recurrence` parameter.
 */
export function RecurrenceInput() {
  const translate = useTranslate();
  const { field } = useInput({ source: 'recurrence' });
  const start = String(useWatch({ name: 'start_date' }) ?? '');
  const series = asSeries(field.value);
  const set = (next: Series | null) => field.onChange(next);
  const rule = series?.rules[0] ? parseRule(series.rules[0]) : null;
  return (
    <Section>
      <FormControlLabel
        control={
          <Switch
            checked={!!series}
            onChange={(e) =>
              set(
                e.target.checked
                  ? { rules: [formatRule(defaultRule(start))], exdates: [], rdates: [] }
                  : null,
              )
            }
          />
        }
        label={translate('cal.recurrence.repeats')}
      />
      {series && (
        <Stack spacing={2} sx={{ mt: 1 }}>
          {rule && (
            <RuleBuilder
              rule={rule}
              start={start}
              onChange={(parts) =>
                set({ ...series, rules: [formatRule(parts), ...series.rules.slice(1)] })
              }
            />
          )}
          <TextField
            label={translate('cal.recurrence.rules')}
            helperText={translate('cal.recurrence.rules_help')}
            multiline
            value={series.rules.join('\n')}
            onChange={(e) =>
              set({ ...series, rules: e.target.value.split('\n').map((r) => r.trim()) })
            }
            onBlur={() => set({ ...series, rules: series.rules.filter(Boolean) })}
            fullWidth
          />
          <DateList
            label={translate('cal.recurrence.exdates')}
            type="date"
            dates={series.exdates}
            onChange={(exdates) => set({ ...series, exdates })}
          />
          <DateList
            label={translate('cal.recurrence.rdates')}
            type="datetime-local"
            dates={series.rdates}
            onChange={(rdates) => set({ ...series, rdates })}
          />
          <RecurrencePreview series={series} />
        </Stack>
      )}
    </Section>
  );
}
