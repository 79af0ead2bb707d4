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
import { CreateOrganizerDto, UpdateOrganizerDto } from './dto/organizer-fields.dto.js';
import { ListOrganizersQuery } from './dto/list-organizers.query.js';
import { OrganizersService } from './organizers.service.js';

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

  @Get()
  @ApiOperation({ summary: odoc('list.summary') })
  list(@Query() query: ListOrganizersQuery, @Ctx() ctx: RequestContext) {
    return this.organizers.list(query, ctx);
  }

  @Post()
  @ApiOperation({ summary: odoc('create.summary') })
  create(@Body() body: CreateOrganizerDto, @Ctx() ctx: RequestContext) {
    return this.organizers.create(body, ctx);
  }

  @Get('by-slug/:slug')
  @ApiOperation({ summary: odoc('get.summary') })
  @ApiParam(SLUG)
  getBySlug(@Param('slug') slug: string, @Ctx() ctx: RequestContext, @UnlockParams() u: Unlock) {
    return this.organizers.getBySlug(slug, ctx, u);
  }

  @Delete('by-slug/:slug')
  @ApiOperation({ summary: odoc('delete.summary') })
  @ApiParam(SLUG)
  trashBySlug(@Param('slug') slug: string, @Ctx() ctx: RequestContext, @UnlockParams() u: Unlock) {
    return this.organizers.trashBySlug(slug, ctx, u);
  }

  @Post('by-slug/:slug')
  @HttpCode(200)
  @ApiOperation({ summary: odoc('update.summary') })
  @ApiParam(SLUG)
  updateBySlug(
    @Param('slug') slug: string,
    @Body() body: UpdateOrganizerDto,
    @Ctx() ctx: RequestContext,
  ) {
    return this.organizers.updateBySlug(slug, body, ctx);
  }

  @Put('by-slug/:slug')
  @HttpCode(200)
  @ApiExcludeEndpoint()
  putBySlug(
    @Param('slug') slug: string,
    @Body() body: UpdateOrganizerDto,
    @Ctx() ctx: RequestContext,
  ) {
    return this.organizers.updateBySlug(slug, body, ctx);
  }

  @Patch('by-slug/:slug')
  @HttpCode(200)
  @ApiExcludeEndpoint()
  patchBySlug(
    @Param('slug') slug: string,
    @Body() body: UpdateOrganizerDto,
    @Ctx() ctx: RequestContext,
  ) {
    return this.organizers.updateBySlug(slug, body, ctx);
  }

  @Get(':id')
  @ApiOperation({ summary: odoc('get.summary') })
  @ApiParam(ID)
  get(@Param('id', RouteIdPipe) id: number, @Ctx() ctx: RequestContext, @UnlockParams() u: Unlock) {
    return this.organizers.getById(id, ctx, u);
  }

  @Delete(':id')
  @ApiOperation({ summary: odoc('delete.summary') })
  @ApiParam(ID)
  trash(
    @Param('id', RouteIdPipe) id: number,
    @Ctx() ctx: RequestContext,
    @UnlockParams() u: Unlock,
  ) {
    return this.organizers.trashById(id, ctx, u);
  }

  @Post(':id')
  @HttpCode(200)
  @ApiOperation({ summary: odoc('update.summary') })
  @ApiParam(ID)
  update(
    @Param('id', RouteIdPipe) id: number,
    @Body() body: UpdateOrganizerDto,
    @Ctx() ctx: RequestContext,
  ) {
    return this.organizers.updateById(id, body, ctx);
  }

  @Put(':id')
  @HttpCode(200)
  @ApiExcludeEndpoint()
  put(
    @Param('id', RouteIdPipe) id: number,
    @Body() body: UpdateOrganizerDto,
    @Ctx() ctx: RequestContext,
  ) {
    return this.organizers.updateById(id, body, ctx);
  }

  @Patch(':id')
  @HttpCode(200)
  @ApiExcludeEndpoint()
  patch(
    @Param('id', RouteIdPipe) id: number,
    @Body() body: UpdateOrganizerDto,
    @Ctx() ctx: RequestContext,
  ) {
    return this.organizers.updateById(id, body, ctx);
  }
}
