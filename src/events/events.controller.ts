import { Body, Controller, Param, Query, Req } from '@nestjs/common';
import { ApiBasicAuth, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { NAMESPACE } from '../common/http/links.js';
import { CachedReads } from '../cache/cached-reads.js';
import { Ctx, type RequestContext } from '../common/http/request-context.js';
import { RouteIdPipe } from '../common/http/route-id.pipe.js';
import { resourceDoc } from '../common/i18n/doc-key.js';
import { CreateEventDto } from './dto/create-event.dto.js';
import { EventReadQuery } from './dto/event-read.query.js';
import { ListEventsQuery } from './dto/list-events.query.js';
import { UpdateEventDto } from './dto/update-event.dto.js';
import { EventsService } from './events.service.js';
import { Endpoint } from '../docs/endpoint.js';
import { FORCE_QUERY } from '../posts/force-delete.js';

const d = resourceDoc('events');
const ID = { name: 'id', type: 'integer', description: d('id') } as const;
const SLUG = { name: 'slug', type: 'string', description: d('slug_path') } as const;

@ApiTags('events')
@ApiBasicAuth('basic')
@CachedReads({ tracked: true })
@Controller(`${NAMESPACE}/events`)
export class EventsController {
  constructor(private readonly events: EventsService) {}

  @Endpoint('GET', undefined, { summary: d('op.list') })
  list(@Query() query: ListEventsQuery, @Ctx() ctx: RequestContext, @Req() req: Request) {
    return this.events.list(query, ctx, new Set(Object.keys(req.query)));
  }

  @Endpoint('POST', undefined, { summary: d('op.create') })
  create(@Body() dto: CreateEventDto, @Ctx() ctx: RequestContext) {
    return this.events.create(dto, ctx);
  }

  @Endpoint('GET', ':id', { summary: d('op.get'), param: ID })
  get(
    @Param('id', RouteIdPipe) id: number,
    @Query() query: EventReadQuery,
    @Ctx() ctx: RequestContext,
  ) {
    return this.events.get(id, query.password, ctx);
  }

  @Endpoint('DELETE', ':id', { summary: d('op.delete'), param: ID, queries: [FORCE_QUERY] })
  remove(@Param('id', RouteIdPipe) id: number, @Ctx() ctx: RequestContext) {
    return this.events.remove(id, ctx);
  }

  @Endpoint('POST', ':id', { summary: d('op.update'), param: ID, status: 200 })
  updatePost(
    @Param('id', RouteIdPipe) id: number,
    @Body() dto: UpdateEventDto,
    @Ctx() ctx: RequestContext,
  ) {
    return this.events.update(id, dto, ctx);
  }

  @Endpoint('PUT', ':id', { summary: d('op.update'), param: ID })
  updatePut(
    @Param('id', RouteIdPipe) id: number,
    @Body() dto: UpdateEventDto,
    @Ctx() ctx: RequestContext,
  ) {
    return this.events.update(id, dto, ctx);
  }

  @Endpoint('PATCH', ':id', { summary: d('op.update'), param: ID })
  updatePatch(
    @Param('id', RouteIdPipe) id: number,
    @Body() dto: UpdateEventDto,
    @Ctx() ctx: RequestContext,
  ) {
    return this.events.update(id, dto, ctx);
  }

  @Endpoint('GET', 'by-slug/:slug', { summary: d('op.get_slug'), param: SLUG })
  getBySlug(
    @Param('slug') slug: string,
    @Query() query: EventReadQuery,
    @Ctx() ctx: RequestContext,
  ) {
    return this.events.getBySlug(slug, query.password, ctx);
  }

  @Endpoint('DELETE', 'by-slug/:slug', {
    summary: d('op.delete'),
    param: SLUG,
    queries: [FORCE_QUERY],
  })
  removeBySlug(@Param('slug') slug: string, @Ctx() ctx: RequestContext) {
    return this.events.removeBySlug(slug, ctx);
  }

  @Endpoint('POST', 'by-slug/:slug', { summary: d('op.update'), param: SLUG, status: 200 })
  updateBySlugPost(
    @Param('slug') slug: string,
    @Body() dto: UpdateEventDto,
    @Ctx() ctx: RequestContext,
  ) {
    return this.events.updateBySlug(slug, dto, ctx);
  }

  @Endpoint('PUT', 'by-slug/:slug', { summary: d('op.update'), param: SLUG })
  updateBySlugPut(
    @Param('slug') slug: string,
    @Body() dto: UpdateEventDto,
    @Ctx() ctx: RequestContext,
  ) {
    return this.events.updateBySlug(slug, dto, ctx);
  }

  @Endpoint('PATCH', 'by-slug/:slug', { summary: d('op.update'), param: SLUG })
  updateBySlugPatch(
    @Param('slug') slug: string,
    @Body() dto: UpdateEventDto,
    @Ctx() ctx: RequestContext,
  ) {
    return this.events.updateBySlug(slug, dto, ctx);
  }
}
