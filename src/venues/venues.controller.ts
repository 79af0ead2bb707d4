import { Body, Controller, Param, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Ctx, type RequestContext } from '../common/http/request-context.js';
import { NAMESPACE } from '../common/http/links.js';
import { CachedReads } from '../common/http/response-cache.js';
import { RouteIdPipe } from '../common/http/route-id.pipe.js';
import { resourceDoc } from '../common/i18n/doc-key.js';
import { UnlockParams, type Unlock } from '../linked/unlock.decorator.js';
import { CreateVenueDto, UpdateVenueDto } from './dto/venue-fields.dto.js';
import { ListVenuesQuery } from './dto/list-venues.query.js';
import { VenuesService } from './venues.service.js';
import { Endpoint } from '../docs/endpoint.js';

const vdoc = resourceDoc('venues');
const ID = { name: 'id', type: 'integer', required: true, description: vdoc('id') } as const;
const SLUG = { name: 'slug', type: 'string', required: true, description: vdoc('slug') } as const;

/**
 * `/venues` routes (INTERFACE §4.3, BEHAVIOR §5.3, §6.2, §7.4). Method groups as WordPress
 * registers them: list [GET], [POST]; item [GET], [DELETE], [POST, PUT, PATCH] — PUT and PATCH are
 * undocumented aliases of POST (BEHAVIOR §3).
 */
@ApiTags('venues')
@CachedReads()
@Controller(`${NAMESPACE}/venues`)
export class VenuesController {
  constructor(private readonly venues: VenuesService) {}

  @Endpoint('GET', undefined, { summary: vdoc('list.summary') })
  list(@Query() query: ListVenuesQuery, @Ctx() ctx: RequestContext) {
    return this.venues.list(query, ctx);
  }

  @Endpoint('POST', undefined, { summary: vdoc('create.summary') })
  create(@Body() body: CreateVenueDto, @Ctx() ctx: RequestContext) {
    return this.venues.create(body, ctx);
  }

  @Endpoint('GET', 'by-slug/:slug', { summary: vdoc('get.summary'), param: SLUG })
  getBySlug(@Param('slug') slug: string, @Ctx() ctx: RequestContext, @UnlockParams() u: Unlock) {
    return this.venues.getBySlug(slug, ctx, u);
  }

  @Endpoint('DELETE', 'by-slug/:slug', { summary: vdoc('delete.summary'), param: SLUG })
  trashBySlug(@Param('slug') slug: string, @Ctx() ctx: RequestContext, @UnlockParams() u: Unlock) {
    return this.venues.trashBySlug(slug, ctx, u);
  }

  @Endpoint('POST', 'by-slug/:slug', { summary: vdoc('update.summary'), param: SLUG, status: 200 })
  updateBySlug(
    @Param('slug') slug: string,
    @Body() body: UpdateVenueDto,
    @Ctx() ctx: RequestContext,
  ) {
    return this.venues.updateBySlug(slug, body, ctx);
  }

  @Endpoint('PUT', 'by-slug/:slug', { status: 200 })
  putBySlug(@Param('slug') slug: string, @Body() body: UpdateVenueDto, @Ctx() ctx: RequestContext) {
    return this.venues.updateBySlug(slug, body, ctx);
  }

  @Endpoint('PATCH', 'by-slug/:slug', { status: 200 })
  patchBySlug(
    @Param('slug') slug: string,
    @Body() body: UpdateVenueDto,
    @Ctx() ctx: RequestContext,
  ) {
    return this.venues.updateBySlug(slug, body, ctx);
  }

  @Endpoint('GET', ':id', { summary: vdoc('get.summary'), param: ID })
  get(@Param('id', RouteIdPipe) id: number, @Ctx() ctx: RequestContext, @UnlockParams() u: Unlock) {
    return this.venues.getById(id, ctx, u);
  }

  @Endpoint('DELETE', ':id', { summary: vdoc('delete.summary'), param: ID })
  trash(
    @Param('id', RouteIdPipe) id: number,
    @Ctx() ctx: RequestContext,
    @UnlockParams() u: Unlock,
  ) {
    return this.venues.trashById(id, ctx, u);
  }

  @Endpoint('POST', ':id', { summary: vdoc('update.summary'), param: ID, status: 200 })
  update(
    @Param('id', RouteIdPipe) id: number,
    @Body() body: UpdateVenueDto,
    @Ctx() ctx: RequestContext,
  ) {
    return this.venues.updateById(id, body, ctx);
  }

  @Endpoint('PUT', ':id', { status: 200 })
  put(
    @Param('id', RouteIdPipe) id: number,
    @Body() body: UpdateVenueDto,
    @Ctx() ctx: RequestContext,
  ) {
    return this.venues.updateById(id, body, ctx);
  }

  @Endpoint('PATCH', ':id', { status: 200 })
  patch(
    @Param('id', RouteIdPipe) id: number,
    @Body() body: UpdateVenueDto,
    @Ctx() ctx: RequestContext,
  ) {
    return this.venues.updateById(id, body, ctx);
  }
}
