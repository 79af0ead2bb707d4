import { Body, Controller, Inject, Param, Query, type Type } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Ctx, type RequestContext } from '../common/http/request-context.js';
import { NAMESPACE } from '../common/http/links.js';
import { parameterTypes } from '../common/http/parameter-types.js';
import { CachedReads } from '../cache/cached-reads.js';
import { RouteIdPipe } from '../common/http/route-id.pipe.js';
import { resourceDoc } from '../common/i18n/doc-key.js';
import { Endpoint } from '../docs/endpoint.js';
import { FORCE_QUERY } from '../posts/force-delete.js';
import type { LinkedListQuery, LinkedWriteFields } from './linked-definition.js';
import { UnlockParams, type Unlock } from './unlock.decorator.js';

/** What the read routes call: the public methods of LinkedQueries. */
interface LinkedReadRoutes {
  list(query: LinkedListQuery, ctx: RequestContext): Promise<unknown>;
  getById(id: number, ctx: RequestContext, unlock: Unlock): Promise<unknown>;
  getBySlug(slug: string, ctx: RequestContext, unlock: Unlock): Promise<unknown>;
}

/** What the write routes call: the public methods of LinkedWrites. */
interface LinkedWriteRoutes {
  create(input: never, ctx: RequestContext): Promise<unknown>;
  updateById(id: number, input: never, ctx: RequestContext): Promise<unknown>;
  updateBySlug(slug: string, input: never, ctx: RequestContext): Promise<unknown>;
  trashById(id: number, ctx: RequestContext, unlock: Unlock): Promise<unknown>;
  trashBySlug(slug: string, ctx: RequestContext, unlock: Unlock): Promise<unknown>;
}

export interface LinkedRoutesOptions {
  /** `venues` / `organizers`: the path, the OpenAPI tag and the i18n keys of the docs. */
  collection: 'venues' | 'organizers';
  queries: Type<LinkedReadRoutes>;
  writes: Type<LinkedWriteRoutes>;
  listQuery: Type<LinkedListQuery>;
  createDto: Type<LinkedWriteFields>;
  updateDto: Type<LinkedWriteFields>;
}

type Input = never;

/** The texts and parameters the routes' documentation shares. */
function routeDocs(collection: LinkedRoutesOptions['collection']) {
  const doc = resourceDoc(collection);
  const ID = { name: 'id', type: 'integer', required: true, description: doc('id') } as const;
  const SLUG = { name: 'slug', type: 'string', required: true, description: doc('slug') } as const;
  return { doc, ID, SLUG };
}

/** The item routes by id: read, trash, update (POST and its aliases PUT, PATCH). */
function idRoutes(options: LinkedRoutesOptions) {
  const { doc, ID } = routeDocs(options.collection);

  class LinkedIdRoutes {
    constructor(
      @Inject(options.queries) readonly queries: LinkedReadRoutes,
      @Inject(options.writes) readonly writes: LinkedWriteRoutes,
    ) {}

    @Endpoint('GET', ':id', { summary: doc('get.summary'), param: ID })
    get(
      @Param('id', RouteIdPipe) id: number,
      @Ctx() ctx: RequestContext,
      @UnlockParams() u: Unlock,
    ) {
      return this.queries.getById(id, ctx, u);
    }

    @Endpoint('DELETE', ':id', {
      summary: doc('delete.summary'),
      param: ID,
      queries: [FORCE_QUERY],
    })
    trash(
      @Param('id', RouteIdPipe) id: number,
      @Ctx() ctx: RequestContext,
      @UnlockParams() u: Unlock,
    ) {
      return this.writes.trashById(id, ctx, u);
    }

    @Endpoint('POST', ':id', { summary: doc('update.summary'), param: ID, status: 200 })
    update(@Param('id', RouteIdPipe) id: number, @Body() body: Input, @Ctx() ctx: RequestContext) {
      return this.writes.updateById(id, body, ctx);
    }

    @Endpoint('PUT', ':id', { status: 200 })
    put(@Param('id', RouteIdPipe) id: number, @Body() body: Input, @Ctx() ctx: RequestContext) {
      return this.writes.updateById(id, body, ctx);
    }

    @Endpoint('PATCH', ':id', { status: 200 })
    patch(@Param('id', RouteIdPipe) id: number, @Body() body: Input, @Ctx() ctx: RequestContext) {
      return this.writes.updateById(id, body, ctx);
    }
  }

  const { updateDto } = options;
  parameterTypes(LinkedIdRoutes, {
    update: [Number, updateDto, Object],
    put: [Number, updateDto, Object],
    patch: [Number, updateDto, Object],
  });
  return LinkedIdRoutes;
}

/** The item routes by slug, the same as by id, on the routes by id. */
function slugRoutes(options: LinkedRoutesOptions) {
  const { doc, SLUG } = routeDocs(options.collection);

  class LinkedSlugRoutes extends idRoutes(options) {
    @Endpoint('GET', 'by-slug/:slug', { summary: doc('get.summary'), param: SLUG })
    getBySlug(@Param('slug') slug: string, @Ctx() ctx: RequestContext, @UnlockParams() u: Unlock) {
      return this.queries.getBySlug(slug, ctx, u);
    }

    @Endpoint('DELETE', 'by-slug/:slug', {
      summary: doc('delete.summary'),
      param: SLUG,
      queries: [FORCE_QUERY],
    })
    trashBySlug(
      @Param('slug') slug: string,
      @Ctx() ctx: RequestContext,
      @UnlockParams() u: Unlock,
    ) {
      return this.writes.trashBySlug(slug, ctx, u);
    }

    @Endpoint('POST', 'by-slug/:slug', { summary: doc('update.summary'), param: SLUG, status: 200 })
    updateBySlug(@Param('slug') slug: string, @Body() body: Input, @Ctx() ctx: RequestContext) {
      return this.writes.updateBySlug(slug, body, ctx);
    }

    @Endpoint('PUT', 'by-slug/:slug', { status: 200 })
    putBySlug(@Param('slug') slug: string, @Body() body: Input, @Ctx() ctx: RequestContext) {
      return this.writes.updateBySlug(slug, body, ctx);
    }

    @Endpoint('PATCH', 'by-slug/:slug', { status: 200 })
    patchBySlug(@Param('slug') slug: string, @Body() body: Input, @Ctx() ctx: RequestContext) {
      return this.writes.updateBySlug(slug, body, ctx);
    }
  }

  const { updateDto } = options;
  parameterTypes(LinkedSlugRoutes, {
    updateBySlug: [String, updateDto, Object],
    putBySlug: [String, updateDto, Object],
    patchBySlug: [String, updateDto, Object],
  });
  return LinkedSlugRoutes;
}

/**
 * The routes of a linked-post collection (INTERFACE §4.3, §4.4; BEHAVIOR §5.3, §6.2, §7.4,
 * §7.5), for venues and organizers alike. Method groups as WordPress registers them: list [GET],
 * [POST]; item [GET], [DELETE], [POST, PUT, PATCH] — PUT and PATCH are undocumented aliases of
 * POST (BEHAVIOR §3). By id and by slug.
 *
 * Three classes, each on the one before: the collection routes on the routes by slug on the
 * routes by id. Nest finds a controller's handlers from its own class down its parents, so the
 * routes are registered (and documented) in the order written here: collection, by slug, by id.
 *
 * The validation pipe and the OpenAPI document read each parameter's class from the
 * `design:paramtypes` metadata, which TypeScript cannot emit for a class built from arguments:
 * each factory declares them for its handlers (parameterTypes).
 */
export function linkedPostController(options: LinkedRoutesOptions): Type<object> {
  const { doc } = routeDocs(options.collection);

  @ApiTags(options.collection)
  @CachedReads({ tracked: true })
  @Controller(`${NAMESPACE}/${options.collection}`)
  class LinkedPostController extends slugRoutes(options) {
    @Endpoint('GET', undefined, { summary: doc('list.summary') })
    list(@Query() query: LinkedListQuery, @Ctx() ctx: RequestContext) {
      return this.queries.list(query, ctx);
    }

    @Endpoint('POST', undefined, { summary: doc('create.summary') })
    create(@Body() body: Input, @Ctx() ctx: RequestContext) {
      return this.writes.create(body, ctx);
    }
  }

  const { listQuery, createDto } = options;
  parameterTypes(LinkedPostController, {
    list: [listQuery, Object],
    create: [createDto, Object],
  });
  return LinkedPostController;
}
