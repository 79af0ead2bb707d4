import { useCallback, useMemo, useRef, useState } from 'react';
import FullCalendar from '@fullcalendar/react';
import dayGridPlugin from '@fullcalendar/daygrid';
import timeGridPlugin from '@fullcalendar/timegrid';
import interactionPlugin from '@fullcalendar/interaction';
import type { EventDropArg, EventInput, EventSourceFuncArg } from '@fullcalendar/core';
import huLocale from '@fullcalendar/core/locales/hu';
import roLocale from '@fullcalendar/core/locales/ro';
import { Button, Card, CardContent } from '@mui/material';
import {
  Title,
  useDataProvider,
  useLocaleState,
  useNotify,
  useTranslate,
  type RaRecord,
} from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { wallClock } from './dates';
import { isOccurrence, UpdateTypeDialog, type UpdateType } from './occurrence';

/** More pages than a month or a week of a calendar holds are not read. */
const MAX_PAGES = 20;

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
  return (
    <Card>
      <Title title={translate('cal.calendar')} />
      <CardContent>
        <FullCalendar
          ref={calendar}
          plugins={[dayGridPlugin, timeGridPlugin, interactionPlugin]}
          initialView="dayGridMonth"
          headerToolbar={{
            left: 'prev,next today',
            center: 'title',
            right: 'dayGridMonth,timeGridWeek',
          }}
          locales={locales}
          locale={locale}
          events={load}
          editable
          eventDrop={drop}
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
