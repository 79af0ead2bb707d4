import { IsBoolean, IsIn, IsOptional, MaxLength } from 'class-validator';
import type { EntityManager } from 'typeorm';
import {
  isWebUrl,
  ToBoolean,
  typeMessage,
  URL_REASON,
  type EventWriteContributor,
  type Text,
} from '../../extensions/index.js';
import { VIDEO_SOURCES } from './virtual-fields.js';
import type { VirtualEventsStore } from './virtual-events.store.js';

/** The cache tag of what the module stores (its filter's lists depend on it). */
export const VIRTUAL_TAG = 'virtual-events';

/** The fields a write may carry (an addition: the plugin ignores them on REST writes). */
export class VirtualEventFragment {
  @IsOptional()
  @ToBoolean()
  @IsBoolean({ message: typeMessage('boolean') })
  is_virtual?: boolean;

  // "" is no link; anything else an http(s) URL.
  @IsOptional()
  @MaxLength(2048, { message: 'limit:too_long:2048' })
  virtual_url?: string;

  @IsOptional()
  // "": no source (what a plain event shows), as a payload read elsewhere carries it.
  @IsIn(['', ...VIDEO_SOURCES], { message: 'invalid' })
  virtual_video_source?: string;
}

const d = (key: string) => `virtual_events.doc.${key}`;

/**
 * Saves them in the write's transaction: `is_virtual=false` clears the others (the row goes);
 * `true`, or a link or source given alone, makes the event virtual, keeping what is not given.
 */
export function virtualWrites(
  store: VirtualEventsStore,
): EventWriteContributor<VirtualEventFragment> {
  return {
    fragment: VirtualEventFragment,
    fields: {
      is_virtual: { type: 'boolean', description: d('is_virtual') },
      virtual_url: {
        type: 'string',
        format: 'uri',
        maxLength: 2048,
        description: d('virtual_url'),
      },
      virtual_video_source: {
        type: 'string',
        enum: ['', ...VIDEO_SOURCES],
        description: d('virtual_video_source'),
      },
    },
    touches: [VIRTUAL_TAG],
    check(values): Record<string, Text> {
      const url = values.virtual_url;
      if (url === undefined || url === '' || (typeof url === 'string' && isWebUrl(url))) return {};
      return { virtual_url: { key: URL_REASON, args: { name: 'virtual_url' } } };
    },
    async save(manager: EntityManager, eventId: number, values, created) {
      if (values.is_virtual === false) {
        if (!created) await store.clear(manager, [eventId]);
        return;
      }
      const existing = created ? undefined : (await store.rowsOf([eventId], manager)).get(eventId);
      // Empty values alone leave a plain event plain.
      const given =
        values.is_virtual === true || !!values.virtual_url || !!values.virtual_video_source;
      if (!existing && !given) return;
      await store.put(manager, eventId, {
        url: values.virtual_url ?? existing?.url ?? '',
        videoSource: values.virtual_video_source || existing?.videoSource || 'video',
      });
    },
  };
}
