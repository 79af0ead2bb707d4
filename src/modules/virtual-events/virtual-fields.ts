import type { EventPayloadContributor } from '../../extensions/index.js';
import { VIRTUAL_TABLE, type VirtualRow } from './virtual-events.store.js';

/** Where a virtual event streams (the add-on's sources). */
export const VIDEO_SOURCES = [
  'video',
  'zoom',
  'webex',
  'google',
  'microsoft',
  'youtube',
  'facebook',
] as const;

/** The three fields the Virtual Events add-on adds to every event (issue 49's table). */
export interface VirtualEventFields {
  is_virtual: boolean | null;
  virtual_url: string | null;
  virtual_video_source: string;
}

// The fields join the typed event payload (TecEvent): the compiler knows them.
declare module '../../extensions/index.js' {
  interface EventExtensionFields {
    is_virtual?: boolean | null;
    virtual_url?: string | null;
    virtual_video_source?: string;
  }
}

const d = (key: string) => `virtual_events.doc.${key}`;
const p = (key: string) => `virtual_events.page.${key}`;

/** A plain event: not virtual, no link, no source. */
const PLAIN: VirtualEventFields = {
  is_virtual: false,
  virtual_url: null,
  virtual_video_source: '',
};

const valuesOf = (row: VirtualRow | undefined): VirtualEventFields =>
  row ? { is_virtual: true, virtual_url: row.url, virtual_video_source: row.videoSource } : PLAIN;

/**
 * The fields of every event payload, both namespaces, for a page in one query. A protected event
 * read without its password shows `null`, `""`, `""`.
 */
export function virtualPayload(): EventPayloadContributor<VirtualEventFields> {
  return {
    kind: 'event',
    fields: {
      is_virtual: {
        protectedValue: null,
        schema: { type: 'boolean', nullable: true, description: d('is_virtual') },
      },
      virtual_url: {
        protectedValue: '',
        schema: { type: 'string', nullable: true, description: d('virtual_url') },
      },
      virtual_video_source: {
        protectedValue: '',
        schema: {
          type: 'string',
          enum: ['', ...VIDEO_SOURCES],
          description: d('virtual_video_source'),
        },
      },
    },
    defaults: PLAIN,
    // Read by the core with the events' rows: a list page costs no query of the module's.
    stored: {
      table: VIRTUAL_TABLE.table,
      key: VIRTUAL_TABLE.key,
      columns: VIRTUAL_TABLE.columns,
      values: (row) => valuesOf(row && VIRTUAL_TABLE.rowOf(row)),
    },
    // schema.org: an online event has a VirtualLocation (its link), beside its place if any.
    jsonLd(ld, values) {
      if (!values.is_virtual) return;
      const place = ld.location;
      ld.eventAttendanceMode = place
        ? 'https://schema.org/MixedEventAttendanceMode'
        : 'https://schema.org/OnlineEventAttendanceMode';
      const online = { '@type': 'VirtualLocation', url: values.virtual_url || undefined };
      ld.location = place ? [place, online] : online;
    },
    // The link as calendar apps show it: RFC 7986's CONFERENCE (Apple, Thunderbird) and the
    // property Google Calendar reads; a protected event's is "" (none written).
    calendarLines(values) {
      const url = values.virtual_url;
      if (!values.is_virtual || !url) return [];
      return [
        { name: 'CONFERENCE;VALUE=URI;FEATURE=VIDEO', value: url, uri: true },
        { name: 'X-GOOGLE-CONFERENCE', value: url, uri: true },
      ];
    },
    // The event page says it is online, with the link to join when its reader may see one.
    pageDetails(values, text) {
      if (!values.is_virtual) return [];
      const url = values.virtual_url;
      const label = text(p('online'));
      return [
        url
          ? { label, value: text(p('join')), href: url }
          : { label, value: text(p('online_event')) },
      ];
    },
  };
}
