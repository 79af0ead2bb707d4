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
} from '@nestjs/common';
import { ApiExcludeEndpoint, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Ctx, type RequestContext } from '../common/http/request-context.js';
import { NAMESPACE } from '../common/http/links.js';
import { CachedReads } from '../common/http/response-cache.js';
import { RouteIdPipe } from '../common/http/route-id.pipe.js';
import { resourceDoc } from '../common/i18n/doc-key.js';
import { UnlockParams, type Unlock } from '../linked/unlock.decorator.js';
import { CreateVenueDto, UpdateVenueDto } from './dto/venue-fields.dto.js';
import { ListVenuesQuery } from './dto/list-venues.query.js';
import { VenuesService } from './venues.service.js';

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

  @Get()
  @ApiOperation({ summary: vdoc('list.summary') })
  list(@Query() query: ListVenuesQuery, @Ctx() ctx: RequestContext) {
    return this.venues.list(query, ctx);
  }

  @Post()
  @ApiOperation({ summary: vdoc('create.summary') })
  create(@Body() body: CreateVenueDto, @Ctx() ctx: RequestContext) {
    return this.venues.create(body, ctx);
  }

  @Get('by-slug/:slug')
  @ApiOperation({ summary: vdoc('get.summary') })
  @ApiParam(SLUG)
  getBySlug(@Param('slug') slug: string, @Ctx() ctx: RequestContext, @UnlockParams() u: Unlock) {
    return this.venues.getBySlug(slug, ctx, u);
  }

  @Delete('by-slug/:slug')
  @ApiOperation({ summary: vdoc('delete.summary') })
  @ApiParam(SLUG)
  trashBySlug(@Param('slug') slug: string, @Ctx() ctx: RequestContext, @UnlockParams() u: Unlock) {
    return this.venues.trashBySlug(slug, ctx, u);
  }

  @Post('by-slug/:slug')
  @HttpCode(200)
  @ApiOperation({ summary: vdoc('update.summary') })
  @ApiParam(SLUG)
  updateBySlug(
    @Param('slug') slug: string,
    @Body() body: UpdateVenueDto,
    @Ctx() ctx: RequestContext,
  ) {
    return this.venues.updateBySlug(slug, body, ctx);
  }

  @Put('by-slug/:slug')
  @HttpCode(200)
  @ApiExcludeEndpoint()
  putBySlug(@Param('slug') slug: string, @Body() body: UpdateVenueDto, @Ctx() ctx: RequestContext) {
    return this.venues.updateBySlug(slug, body, ctx);
  }

  @Patch('by-slug/:slug')
  @HttpCode(200)
  @ApiExcludeEndpoint()
  patchBySlug(
    @Param('slug') slug: string,
    @Body() body: UpdateVenueDto,
    @Ctx() ctx: RequestContext,
  ) {
    return this.venues.updateBySlug(slug, body, ctx);
  }

  @Get(':id')
  @ApiOperation({ summary: vdoc('get.summary') })
  @ApiParam(ID)
  get(@Param('id', RouteIdPipe) id: number, @Ctx() ctx: RequestContext, @UnlockParams() u: Unlock) {
    return this.venues.getById(id, ctx, u);
  }

  @Delete(':id')
  @ApiOperation({ summary: vdoc('delete.summary') })
  @ApiParam(ID)
  trash(
    @Param('id', RouteIdPipe) id: number,
    @Ctx() ctx: RequestContext,
    @UnlockParams() u: Unlock,
  ) {
    return this.venues.trashById(id, ctx, u);
  }

  @Post(':id')
  @HttpCode(200)
  @ApiOperation({ summary: vdoc('update.summary') })
  @ApiParam(ID)
  update(
    @Param('id', RouteIdPipe) id: number,
    @Body() body: UpdateVenueDto,
    @Ctx() ctx: RequestContext,
  ) {
    return this.venues.updateById(id, body, ctx);
  }

  @Put(':id')
  @HttpCode(200)
  @ApiExcludeEndpoint()
  put(
    @Param('id', RouteIdPipe) id: number,
    @Body() body: UpdateVenueDto,
    @Ctx() ctx: RequestContext,
  ) {
    return this.venues.updateById(id, body, ctx);
  }

  @Patch(':id')
  @HttpCode(200)
  @ApiExcludeEndpoint()
  patch(
    @Param('id', RouteIdPipe) id: number,
    @Body() body: UpdateVenueDto,
    @Ctx() ctx: RequestContext,
  ) {
    return this.venues.updateById(id, body, ctx);
  }
}
