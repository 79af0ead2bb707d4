import { Inject, Injectable } from '@nestjs/common';
import { ANONYMOUS, type Actor } from '../common/actor.js';
import { NAMESPACE } from '../common/http/links.js';
import type { RequestContext } from '../common/http/request-context.js';
import { APP_CONFIG, isLanguage, type AppConfig, type Language } from '../config/config.js';
import type { RecordKind } from '../database/writes.js';
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
  ) {}

  async render(
    kind: RecordKind,
    id: number,
    language: string | null,
    audience: Audience,
  ): Promise<object | undefined> {
    const lang: Language = isLanguage(language) ? language : this.config.defaultLanguage;
    const prefix = lang === this.config.defaultLanguage ? '' : `/${lang}`;
    const ctx: RequestContext = {
      actor: audience === 'private' ? WEBHOOK_ADMIN : ANONYMOUS,
      language: lang,
      restBase: `${this.config.siteUrl}${this.config.basePath}${prefix}/${NAMESPACE}`,
      siteUrl: this.config.siteUrl,
      config: this.config,
      query: {},
    };
    const unlock = { edit: audience === 'private' };
    try {
      switch (kind) {
        case 'event':
          return await this.events.get(id, undefined, ctx);
        case 'venue':
          return await this.venues.getById(id, ctx, unlock);
        case 'organizer':
          return await this.organizers.getById(id, ctx, unlock);
        default:
          return await this.terms.get(kind, id, ctx);
      }
    } catch {
      // Not readable by this reader (401, 403, 404, 410): announced without its payload.
      return undefined;
    }
  }
}
