import { Body, Controller, Param, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Ctx, type RequestContext } from '../common/http/request-context.js';
import { NAMESPACE } from '../common/http/links.js';
import { CachedReads } from '../common/http/response-cache.js';
import { RouteIdPipe } from '../common/http/route-id.pipe.js';
import { resourceDoc } from '../common/i18n/doc-key.js';
import { UnlockParams, type Unlock } from '../linked/unlock.decorator.js';
import { CreateOrganizerDto, UpdateOrganizerDto } from './dto/organizer-fields.dto.js';
import { ListOrganizersQuery } from './dto/list-organizers.query.js';
import { OrganizersService } from './organizers.service.js';
import { Endpoint } from '../docs/endpoint.js';

const odoc = resourceDoc('organizers');
const ID = { name: 'id', type: 'integer', required: true, description: odoc('id') } as const;
const SLUG = { name: 'slug', type: 'string', required: true, description: odoc('slug') } as const;

/**
 * `/organizers` routes (INTERFACE §4.4, BEHAVIOR §5.3, §6.2, §7.5). Method groups as WordPress
 * registers them: list [GET], [POST]; item [GET], [DELETE], [POST, PUT, PATCH] — PUT and PATCH are
 * undocumented aliases of POST (BEHAVIOR §3).
 */
@ApiTags('organizers')
@CachedReads()
@Controller(`${NAMESPACE}/organizers`)
export class OrganizersController {
  constructor(private readonly organizers: OrganizersService) {}

  @Endpoint('GET', undefined, { summary: odoc('list.summary') })
  list(@Query() query: ListOrganizersQuery, @Ctx() ctx: RequestContext) {
    return this.organizers.list(query, ctx);
  }

  @Endpoint('POST', undefined, { summary: odoc('create.summary') })
  create(@Body() body: CreateOrganizerDto, @Ctx() ctx: RequestContext) {
    return this.organizers.create(body, ctx);
  }

  @Endpoint('GET', 'by-slug/:slug', { summary: odoc('get.summary'), param: SLUG })
  getBySlug(@Param('slug') slug: string, @Ctx() ctx: RequestContext, @UnlockParams() u: Unlock) {
    return this.organizers.getBySlug(slug, ctx, u);
  }

  @Endpoint('DELETE', 'by-slug/:slug', { summary: odoc('delete.summary'), param: SLUG })
  trashBySlug(@Param('slug') slug: string, @Ctx() ctx: RequestContext, @UnlockParams() u: Unlock) {
    return this.organizers.trashBySlug(slug, ctx, u);
  }

  @Endpoint('POST', 'by-slug/:slug', { summary: odoc('update.summary'), param: SLUG, status: 200 })
  updateBySlug(
    @Param('slug') slug: string,
    @Body() body: UpdateOrganizerDto,
    @Ctx() ctx: RequestContext,
  ) {
    return this.organizers.updateBySlug(slug, body, ctx);
  }

  @Endpoint('PUT', 'by-slug/:slug', { status: 200 })
  putBySlug(
    @Param('slug') slug: string,
    @Body() body: UpdateOrganizerDto,
    @Ctx() ctx: RequestContext,
  ) {
    return this.organizers.updateBySlug(slug, body, ctx);
  }

  @Endpoint('PATCH', 'by-slug/:slug', { status: 200 })
  patchBySlug(
    @Param('slug') slug: string,
    @Body() body: UpdateOrganizerDto,
    @Ctx() ctx: RequestContext,
  ) {
    return this.organizers.updateBySlug(slug, body, ctx);
  }

  @Endpoint('GET', ':id', { summary: odoc('get.summary'), param: ID })
  get(@Param('id', RouteIdPipe) id: number, @Ctx() ctx: RequestContext, @UnlockParams() u: Unlock) {
    return this.organizers.getById(id, ctx, u);
  }

  @Endpoint('DELETE', ':id', { summary: odoc('delete.summary'), param: ID })
  trash(
    @Param('id', RouteIdPipe) id: number,
    @Ctx() ctx: RequestContext,
    @UnlockParams() u: Unlock,
  ) {
    return this.organizers.trashById(id, ctx, u);
  }

  @Endpoint('POST', ':id', { summary: odoc('update.summary'), param: ID, status: 200 })
  update(
    @Param('id', RouteIdPipe) id: number,
    @Body() body: UpdateOrganizerDto,
    @Ctx() ctx: RequestContext,
  ) {
    return this.organizers.updateById(id, body, ctx);
  }

  @Endpoint('PUT', ':id', { status: 200 })
  put(
    @Param('id', RouteIdPipe) id: number,
    @Body() body: UpdateOrganizerDto,
    @Ctx() ctx: RequestContext,
  ) {
    return this.organizers.updateById(id, body, ctx);
  }

  @Endpoint('PATCH', ':id', { status: 200 })
  patch(
    @Param('id', RouteIdPipe) id: number,
    @Body() body: UpdateOrganizerDto,
    @Ctx() ctx: RequestContext,
  ) {
    return this.organizers.updateById(id, body, ctx);
  }
}
