import { Inject, Injectable } from '@nestjs/common';
import { UsersService } from '../auth/users/users.service.js';
import { ApiError } from '../common/errors/api-error.js';
import type { RequestContext } from '../common/http/request-context.js';
import { createValidationPipe } from '../common/http/validation.js';
import { APP_CONFIG, type AppConfig, type Language } from '../config/config.js';
import type { Message } from '../config/messages.js';
import { CreateEventDto } from '../events/dto/create-event.dto.js';
import { UpdateEventDto } from '../events/dto/update-event.dto.js';
import { EventsService } from '../events/events.service.js';
import { CreateOrganizerDto, UpdateOrganizerDto } from '../organizers/dto/organizer-fields.dto.js';
import { OrganizerWrites } from '../organizers/organizers.service.js';
import {
  CreateCategoryDto,
  CreateTagDto,
  UpdateCategoryDto,
  UpdateTagDto,
} from '../terms/dto/write-term.dto.js';
import { TermWrites } from '../terms/term-writes.js';
import { CreateVenueDto, UpdateVenueDto } from '../venues/dto/venue-fields.dto.js';
import { VenueWrites } from '../venues/venues.service.js';
import { SourceError } from './http-client.js';
import type { ImportMap, MapKind } from './import-map.js';
import { messages } from './messages.js';

/**
 * The local side of every importer: the user records are written as, and each write through
 * the same services, body validation and permission checks as the API, with the API's
 * refusals told as one line. Whatever the source (a TEC site, an iCalendar feed), a record
 * lands as a client of the API would have written it.
 */
@Injectable()
export class ImportWriter {
  private readonly pipe = createValidationPipe();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly users: UsersService,
    private readonly events: EventsService,
    private readonly venues: VenueWrites,
    private readonly organizers: OrganizerWrites,
    private readonly terms: TermWrites,
  ) {}

  /** The local user records are written as. */
  async actorFor(login: string) {
    const user = (await this.users.list()).find((u) => u.login === login);
    if (!user) throw new SourceError(messages.noLocalUser(login));
    if (user.role === 'subscriber') throw new SourceError(messages.subscriberAuthor(login));
    return { user: { id: user.id, login: user.login, role: user.role } };
  }

  contextFor(actor: RequestContext['actor'], language: Language): RequestContext {
    return {
      actor,
      language,
      restBase: `${this.config.siteUrl}${this.config.basePath}/cal/events/v1`,
      siteUrl: this.config.siteUrl,
      config: this.config,
      query: {},
    };
  }

  /** Validates as the API's body pipe does, then calls the service; answers the local id. */
  async write(
    kind: MapKind,
    localId: number | undefined,
    body: Record<string, unknown>,
    ctx: RequestContext,
  ): Promise<number | undefined> {
    const validate = async <T>(metatype: new () => T): Promise<T> =>
      (await this.pipe.transform(structuredClone(body), {
        type: 'body',
        metatype: metatype as never,
      })) as T;
    const idOf = (payload: unknown) => (payload as { id?: number }).id;
    switch (kind) {
      case 'category':
        return localId === undefined
          ? idOf(await this.terms.create('category', await validate(CreateCategoryDto), ctx))
          : idOf(
              await this.terms.update('category', localId, await validate(UpdateCategoryDto), ctx),
            );
      case 'tag':
        return localId === undefined
          ? idOf(await this.terms.create('tag', await validate(CreateTagDto), ctx))
          : idOf(await this.terms.update('tag', localId, await validate(UpdateTagDto), ctx));
      case 'venue':
        return localId === undefined
          ? idOf(await this.venues.create(await validate(CreateVenueDto), ctx))
          : idOf(await this.venues.updateById(localId, await validate(UpdateVenueDto), ctx));
      case 'organizer':
        return localId === undefined
          ? idOf(await this.organizers.create(await validate(CreateOrganizerDto), ctx))
          : idOf(
              await this.organizers.updateById(localId, await validate(UpdateOrganizerDto), ctx),
            );
      case 'event': {
        // The extension modules' write fields are read from the body, as on the API.
        const withBody = { ...ctx, body };
        return localId === undefined
          ? idOf(await this.events.create(await validate(CreateEventDto), withBody))
          : idOf(await this.events.update(localId, await validate(UpdateEventDto), withBody));
      }
      default:
        return unknownKind(kind);
    }
  }

  /**
   * Retires an event an earlier import made of source record `sourceId` that another record now
   * stands for (a series for its occurrences): the local event `localId` goes to the trash as
   * `ctx`'s actor (one gone or trashed already is left) and the map forgets the row.
   */
  async retireEvent(
    map: ImportMap,
    sourceId: string | number,
    localId: number,
    ctx: RequestContext,
  ): Promise<void> {
    try {
      await this.events.remove(localId, ctx);
    } catch (error) {
      if (!(error instanceof ApiError && (error.status === 404 || error.status === 410))) {
        throw error;
      }
    }
    await map.forget('event', sourceId);
  }

  /**
   * An API error as one line: its message and, for a 400, each parameter's reason, from the
   * `errors` and `validation` catalogues, in the language the CLI shows it in.
   */
  describe(error: ApiError): Message {
    const params = Object.entries(error.data.params ?? {}).map(([name, reason]) =>
      messages.param(name, reason),
    );
    return messages.apiRefusal(error.code, error.status, error.text, params);
  }
}

export /** The compiler proves every kind handled; this names one that a cast let through. */
function unknownKind(kind: never): never {
  throw new Error(`unknown record kind ${JSON.stringify(kind)}`);
}
