import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import FullCalendar from '@fullcalendar/react';
import dayGridPlugin from '@fullcalendar/daygrid';
import timeGridPlugin from '@fullcalendar/timegrid';
import interactionPlugin from '@fullcalendar/interaction';
import listPlugin from '@fullcalendar/list';
import type { DatesSetArg, EventDropArg, EventInput, EventSourceFuncArg } from '@fullcalendar/core';
import huLocale from '@fullcalendar/core/locales/hu';
import roLocale from '@fullcalendar/core/locales/ro';
import { Button, Card, CardContent, useMediaQuery, type Theme } from '@mui/material';
import {
  Title,
  useDataProvider,
  useLocaleState,
  useNotify,
  useTranslate,
  type RaRecord,
} from 'react-admin';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { wallClock } from './dates';
import { isOccurrence, UpdateTypeDialog, type UpdateType } from './occurrence';

/** More pages than a month or a week of a calendar holds are not read. */
const MAX_PAGES = 20;

/** The views offered on a wide screen and on a phone; the first opens. */
const WIDE_VIEWS = ['dayGridMonth', 'timeGridWeek', 'listWeek'];
const NARROW_VIEWS = ['listWeek', 'listMonth'];

/** The theme's primary blue: white text on it passes WCAG AA (FullCalendar's own blue does not). */
const EVENT_COLOR = '#0d47a1';

/**
 * FullCalendar's styles where they fall short of WCAG AA contrast or of a phone's width: the
 * days of the next and previous months are greyed by colour, not faded to 30 %; drafts and
 * submissions are outlined, not filled; the toolbar wraps on a narrow screen.
 */
const CALENDAR_STYLE = {
  '& .fc .fc-day-other .fc-daygrid-day-top': { opacity: 1, color: '#595959' },
  '& .fc .fc-toolbar': { flexWrap: 'wrap', gap: 1 },
  // FullCalendar's English words are lower case ("today", "month"); the console's capitalised.
  '& .fc .fc-button': { textTransform: 'capitalize' },
  '& .fc .fc-toolbar-title': { fontSize: { xs: '1.25em', sm: '1.75em' } },
  '& .fc .cal-status-draft, & .fc .cal-status-pending': {
    backgroundColor: '#fff',
    borderStyle: 'dashed',
    '& .fc-event-main, & .fc-event-time, & .fc-event-title': { color: EVENT_COLOR },
  },
} as const;

/**
 * The events as a month or week calendar (FullCalendar, MIT packages), in the console's
 * language; an event opens its form, and dragging one moves it (its length kept).
 */
export default function CalendarPage() {
  const dataProvider = useDataProvider();
  const navigate = useNavigate();
  const notify = useNotify();
  const translate = useTranslate();
  const [locale] = useLocaleState();

  const load = useCallback(
    async (range: EventSourceFuncArg): Promise<EventInput[]> => {
      const rows: RaRecord[] = [];
      for (let page = 1; page <= MAX_PAGES; page++) {
        const { data, total } = await dataProvider.getList('events', {
          pagination: { page, perPage: 50 },
          sort: { field: 'start_date', order: 'ASC' },
          filter: {
            start_date: wallClock(range.start),
            end_date: wallClock(range.end),
            status: 'any',
          },
        });
        rows.push(...data);
        if (rows.length >= (total ?? 0) || data.length === 0) break;
      }
      return rows.map((row) => ({
        id: String(row.id),
        title: String(row.title ?? ''),
        start: String(row.start_date).replace(' ', 'T'),
        end: String(row.end_date).replace(' ', 'T'),
        allDay: Boolean(row.all_day),
        classNames: [`cal-status-${String(row.status)}`],
        extendedProps: { row },
      }));
    },
    [dataProvider],
  );

  const calendar = useRef<FullCalendar>(null);
  /** A moved occurrence waits for the answer to "this / this and following / all". */
  const [asked, setAsked] = useState<EventDropArg | null>(null);

  const move = useCallback(
    async (drop: EventDropArg, type?: UpdateType) => {
      const { event } = drop;
      const row = (event.extendedProps.row ?? {}) as RaRecord;
      try {
        await dataProvider.update('events', {
          id: Number(event.id),
          data: {
            ...row,
            start_date: wallClock(event.start!),
            end_date: wallClock(event.end ?? event.start!),
            _tec_update_type: type,
          },
          previousData: row,
        });
        notify('ra.notification.updated', { type: 'info', messageArgs: { smart_count: 1 } });
        // A series changed, or an occurrence left it with a new id: the calendar is read anew.
        if (type) calendar.current?.getApi().refetchEvents();
      } catch (error) {
        drop.revert();
        notify((error as Error).message, { type: 'error' });
      }
    },
    [dataProvider, notify],
  );
  const drop = useCallback(
    (arg: EventDropArg) => (isOccurrence(arg.event.id) ? setAsked(arg) : void move(arg)),
    [move],
  );

  const locales = useMemo(() => [huLocale, roLocale], []);
  // A phone shows the events as a list (a week or a month of them), which fits 375 px; the
  // month and week grids need a wider screen.
  const narrow = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const [params, setParams] = useSearchParams();
  const views = narrow ? NARROW_VIEWS : WIDE_VIEWS;
  const requestedView = params.get('view') ?? '';
  const initialView = views.includes(requestedView) ? requestedView : views[0];
  const initialDate = /^\d{4}-\d{2}-\d{2}$/.test(params.get('date') ?? '')
    ? params.get('date')!
    : undefined;
  /** The shown date and view are kept in the address: back, reload and links come back to them. */
  const [shownAt, setShownAt] = useState<{ date: string; view: string } | null>(null);
  const shown = useCallback(
    (arg: DatesSetArg) =>
      setShownAt({ date: wallClock(arg.view.currentStart).slice(0, 10), view: arg.view.type }),
    [],
  );
  useEffect(() => {
    if (!shownAt) return;
    if (params.get('date') === shownAt.date && params.get('view') === shownAt.view) return;
    setParams(shownAt, { replace: true });
  }, [shownAt, params, setParams]);
  return (
    <Card sx={CALENDAR_STYLE}>
      <Title title={translate('cal.calendar')} />
      <CardContent>
        <FullCalendar
          key={narrow ? 'narrow' : 'wide'}
          ref={calendar}
          plugins={[dayGridPlugin, timeGridPlugin, listPlugin, interactionPlugin]}
          initialView={initialView}
          initialDate={initialDate}
          headerToolbar={{
            left: narrow ? 'prev,next' : 'prev,next today',
            center: 'title',
            right: views.join(','),
          }}
          // Words, not icon glyphs: the arrows are named in the console's language.
          buttonIcons={false}
          // On a phone both views are lists: named by their length (the locales call both "list").
          views={{
            listWeek: narrow ? { buttonText: translate('cal.calendar_nav.week') } : {},
            listMonth: { buttonText: translate('cal.calendar_nav.month') },
          }}
          buttonText={{
            prev: translate('cal.calendar_nav.previous'),
            next: translate('cal.calendar_nav.next'),
          }}
          locales={locales}
          locale={locale}
          events={load}
          editable
          eventColor={EVENT_COLOR}
          eventDrop={drop}
          datesSet={shown}
          // A day of the month grid is named by its date alone while it shows its events too
          // (axe-core's label-content-name-mismatch): it is named by what it shows.
          dayCellDidMount={(cell) => cell.el.removeAttribute('aria-labelledby')}
          eventClick={(click) => {
            click.jsEvent.preventDefault();
            navigate(`/events/${click.event.id}`);
          }}
          height="auto"
        />
      </CardContent>
      <UpdateTypeDialog
        open={!!asked}
        onClose={() => {
          asked?.revert();
          setAsked(null);
        }}
        choice={(type, label) => (
          <Button
            key={type}
            variant={type === 'single' ? 'contained' : 'outlined'}
            onClick={() => {
              if (asked) void move(asked, type);
              setAsked(null);
            }}
          >
            {translate(label)}
          </Button>
        )}
      />
    </Card>
  );
}
