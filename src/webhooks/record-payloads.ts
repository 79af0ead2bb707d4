import { Inject, Injectable } from '@nestjs/common';
import { ANONYMOUS, type Actor } from '../common/actor.js';
import { NAMESPACE } from '../common/http/links.js';
import type { RequestContext } from '../common/http/request-context.js';
import { RecordCache } from '../cache/record-cache.js';
import { APP_CONFIG, isLanguage, type AppConfig, type Language } from '../config/config.js';
import type { RecordKind } from '../common/records/record-kinds.js';
import { EventsService } from '../events/events.service.js';
import { OrganizerQueries } from '../organizers/organizers.service.js';
import { TermQueries } from '../terms/terms.module.js';
import { VenueQueries } from '../venues/venues.service.js';

/** Who a payload is rendered for: the public, or an administrator (`include_private`). */
export type Audience = 'public' | 'private';

/**
 * A delivery's administrator: sees every record as an administrator of the API does. It is no
 * user of the users table; nothing is written on its behalf.
 */
const WEBHOOK_ADMIN: Actor = Object.freeze({
  user: { id: 0, login: 'webhooks', role: 'administrator' as const },
});

/**
 * A record's payload as the API answers it by ID: to an anonymous reader for public
 * subscriptions, to an administrator for those with `include_private`, in the record's language
 * (links carry that language's prefix unless it is the default). Undefined when that reader
 * may not read it (a draft for the public, a trashed or removed record).
 */
@Injectable()
export class RecordPayloads {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly events: EventsService,
    private readonly venues: VenueQueries,
    private readonly organizers: OrganizerQueries,
    private readonly terms: TermQueries,
    private readonly cache: RecordCache,
  ) {}

  /**
   * The payloads of the records `ids` of one kind, by id, for one reader and language: those
   * the reader may not read are left out. One read of each kind's presenter for all of them (the
   * RecordCache's payloads reused), so a batch costs a fixed number of queries whatever its size.
   */
  async renderMany(
    kind: RecordKind,
    ids: readonly number[],
    language: string | null,
    audience: Audience,
  ): Promise<Map<number, object>> {
    if (!ids.length) return new Map();
    const ctx = this.contextOf(language, audience);
    const unlock = { edit: audience === 'private' };
    switch (kind) {
      case 'event':
        return this.events.getMany(ids, ctx);
      case 'venue':
        return this.venues.getMany(ids, ctx, unlock);
      case 'organizer':
        return this.organizers.getMany(ids, ctx, unlock);
      default:
        return this.terms.getMany(kind, ids, ctx);
    }
  }

  /**
   * `renderMany`'s payloads as JSON: a payload the RecordCache keeps was serialized when kept,
   * the others are serialized here, once each.
   */
  async renderJson(
    kind: RecordKind,
    ids: readonly number[],
    language: string | null,
    audience: Audience,
  ): Promise<Map<number, string>> {
    const json = new Map<number, string>();
    for (const [id, payload] of await this.renderMany(kind, ids, language, audience)) {
      json.set(id, this.cache.jsonOf(payload)?.toString() ?? JSON.stringify(payload));
    }
    return json;
  }

  /** The context of a request by the reader of `audience` in `language` (the default if none). */
  private contextOf(language: string | null, audience: Audience): RequestContext {
    const lang: Language = isLanguage(language) ? language : this.config.defaultLanguage;
    const prefix = lang === this.config.defaultLanguage ? '' : `/${lang}`;
    return {
      actor: audience === 'private' ? WEBHOOK_ADMIN : ANONYMOUS,
      language: lang,
      restBase: `${this.config.siteUrl}${this.config.basePath}${prefix}/${NAMESPACE}`,
      siteUrl: this.config.siteUrl,
      config: this.config,
      // An administrator reads with context=edit: a password-protected post is open to it.
      query: audience === 'private' ? { context: 'edit' } : {},
    };
  }
}
