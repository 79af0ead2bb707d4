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
  Res,
} from '@nestjs/common';
import { ApiExcludeEndpoint, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { NAMESPACE } from '../common/http/links.js';
import { CachedReads } from '../common/http/response-cache.js';
import { Ctx, type RequestContext } from '../common/http/request-context.js';
import { RouteIdPipe } from '../common/http/route-id.pipe.js';
import { ListCategoriesQuery } from './dto/list-terms.query.js';
import { termDoc } from './dto/term-docs.js';
import { CreateCategoryDto, UpdateCategoryDto } from './dto/write-term.dto.js';
import { withLocation } from './location.js';
import { TermsService } from './terms.service.js';

/** `cal/events/v1/categories` (BEHAVIOR §5.4, §6.3, §7.6). No by-slug routes. */
@ApiTags('categories')
@CachedReads()
@Controller(`${NAMESPACE}/categories`)
export class CategoriesController {
  constructor(private readonly terms: TermsService) {}

  @Get()
  @ApiOperation({ summary: termDoc('categories.list') })
  list(@Query() query: ListCategoriesQuery, @Ctx() ctx: RequestContext) {
    return this.terms.list('category', query, ctx);
  }

  @Post()
  @ApiOperation({ summary: termDoc('categories.create') })
  async create(
    @Body() body: CreateCategoryDto,
    @Ctx() ctx: RequestContext,
    @Res({ passthrough: true }) res: Response,
  ) {
    return withLocation(res, await this.terms.create('category', body, ctx));
  }

  @Get(':id')
  @ApiOperation({ summary: termDoc('categories.get') })
  @ApiParam({ name: 'id', type: 'integer', description: termDoc('categories.id') })
  get(@Param('id', RouteIdPipe) id: number, @Ctx() ctx: RequestContext) {
    return this.terms.get('category', id, ctx);
  }

  // The plugin documents POST on the item as both update (200) and create (201) (BEHAVIOR §3).
  @Post(':id')
  @HttpCode(200)
  @ApiOperation({ summary: termDoc('categories.update') })
  @ApiParam({ name: 'id', type: 'integer', description: termDoc('categories.id') })
  update(
    @Param('id', RouteIdPipe) id: number,
    @Body() body: UpdateCategoryDto,
    @Ctx() ctx: RequestContext,
  ) {
    return this.terms.update('category', id, body, ctx);
  }

  // PUT and PATCH behave as POST and are not documented separately (BEHAVIOR §3).
  @Put(':id')
  @ApiExcludeEndpoint()
  put(
    @Param('id', RouteIdPipe) id: number,
    @Body() body: UpdateCategoryDto,
    @Ctx() ctx: RequestContext,
  ) {
    return this.terms.update('category', id, body, ctx);
  }

  @Patch(':id')
  @ApiExcludeEndpoint()
  patch(
    @Param('id', RouteIdPipe) id: number,
    @Body() body: UpdateCategoryDto,
    @Ctx() ctx: RequestContext,
  ) {
    return this.terms.update('category', id, body, ctx);
  }

  @Delete(':id')
  @ApiOperation({ summary: termDoc('categories.delete') })
  @ApiParam({ name: 'id', type: 'integer', description: termDoc('categories.id') })
  delete(@Param('id', RouteIdPipe) id: number, @Ctx() ctx: RequestContext) {
    return this.terms.delete('category', id, ctx);
  }
}
