import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Patch,
  Post,
  Put,
  Query,
  Req,
} from '@nestjs/common';
import { ApiBasicAuth, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { NAMESPACE } from '../common/http/links.js';
import { CachedReads } from '../common/http/response-cache.js';
import { Ctx, type RequestContext } from '../common/http/request-context.js';
import { RouteIdPipe } from '../common/http/route-id.pipe.js';
import { resourceDoc } from '../common/i18n/doc-key.js';
import { CreateEventDto } from './dto/create-event.dto.js';
import { EventReadQuery } from './dto/event-read.query.js';
import { ListEventsQuery } from './dto/list-events.query.js';
import { UpdateEventDto } from './dto/update-event.dto.js';
import { EventsService } from './events.service.js';

const d = resourceDoc('events');
const ID = { name: 'id', type: 'integer', description: d('id') } as const;
const SLUG = { name: 'slug', type: 'string', description: d('slug_path') } as const;

@ApiTags('events')
@ApiBasicAuth('basic')
@CachedReads()
@Controller(`${NAMESPACE}/events`)
export class EventsController {
  constructor(private readonly events: EventsService) {}

  @Get()
  @ApiOperation({ summary: d('op.list') })
  list(@Query() query: ListEventsQuery, @Ctx() ctx: RequestContext, @Req() req: Request) {
    return this.events.list(query, ctx, new Set(Object.keys(req.query as object)));
  }

  @Post()
  @ApiOperation({ summary: d('op.create') })
  create(@Body() dto: CreateEventDto, @Ctx() ctx: RequestContext) {
    return this.events.create(dto, ctx);
  }

  @Get(':id')
  @ApiOperation({ summary: d('op.get') })
  @ApiParam(ID)
  get(
    @Param('id', RouteIdPipe) id: number,
    @Query() query: EventReadQuery,
    @Ctx() ctx: RequestContext,
  ) {
    return this.events.get(id, query.password, ctx);
  }

  @Delete(':id')
  @ApiOperation({ summary: d('op.delete') })
  @ApiParam(ID)
  remove(@Param('id', RouteIdPipe) id: number, @Ctx() ctx: RequestContext) {
    return this.events.remove(id, ctx);
  }

  @Post(':id')
  @HttpCode(200)
  @ApiOperation({ summary: d('op.update') })
  @ApiParam(ID)
  updatePost(
    @Param('id', RouteIdPipe) id: number,
    @Body() dto: UpdateEventDto,
    @Ctx() ctx: RequestContext,
  ) {
    return this.events.update(id, dto, ctx);
  }

  @Put(':id')
  @ApiOperation({ summary: d('op.update') })
  @ApiParam(ID)
  updatePut(
    @Param('id', RouteIdPipe) id: number,
    @Body() dto: UpdateEventDto,
    @Ctx() ctx: RequestContext,
  ) {
    return this.events.update(id, dto, ctx);
  }

  @Patch(':id')
  @ApiOperation({ summary: d('op.update') })
  @ApiParam(ID)
  updatePatch(
    @Param('id', RouteIdPipe) id: number,
    @Body() dto: UpdateEventDto,
    @Ctx() ctx: RequestContext,
  ) {
    return this.events.update(id, dto, ctx);
  }

  @Get('by-slug/:slug')
  @ApiOperation({ summary: d('op.get_slug') })
  @ApiParam(SLUG)
  getBySlug(
    @Param('slug') slug: string,
    @Query() query: EventReadQuery,
    @Ctx() ctx: RequestContext,
  ) {
    return this.events.getBySlug(slug, query.password, ctx);
  }

  @Delete('by-slug/:slug')
  @ApiOperation({ summary: d('op.delete') })
  @ApiParam(SLUG)
  removeBySlug(@Param('slug') slug: string, @Ctx() ctx: RequestContext) {
    return this.events.removeBySlug(slug, ctx);
  }

  @Post('by-slug/:slug')
  @HttpCode(200)
  @ApiOperation({ summary: d('op.update') })
  @ApiParam(SLUG)
  updateBySlugPost(
    @Param('slug') slug: string,
    @Body() dto: UpdateEventDto,
    @Ctx() ctx: RequestContext,
  ) {
    return this.events.updateBySlug(slug, dto, ctx);
  }

  @Put('by-slug/:slug')
  @ApiOperation({ summary: d('op.update') })
  @ApiParam(SLUG)
  updateBySlugPut(
    @Param('slug') slug: string,
    @Body() dto: UpdateEventDto,
    @Ctx() ctx: RequestContext,
  ) {
    return this.events.updateBySlug(slug, dto, ctx);
  }

  @Patch('by-slug/:slug')
  @ApiOperation({ summary: d('op.update') })
  @ApiParam(SLUG)
  updateBySlugPatch(
    @Param('slug') slug: string,
    @Body() dto: UpdateEventDto,
    @Ctx() ctx: RequestContext,
  ) {
    return this.events.updateBySlug(slug, dto, ctx);
  }
}
