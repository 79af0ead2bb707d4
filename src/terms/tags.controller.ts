import { Body, Controller, Param, Query, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { NAMESPACE } from '../common/http/links.js';
import { CachedReads } from '../common/http/response-cache.js';
import { Ctx, type RequestContext } from '../common/http/request-context.js';
import { RouteIdPipe } from '../common/http/route-id.pipe.js';
import { ListTagsQuery } from './dto/list-terms.query.js';
import { termDoc } from './dto/term-docs.js';
import { CreateTagDto, UpdateTagDto } from './dto/write-term.dto.js';
import { withLocation } from './location.js';
import { TermsService } from './terms.service.js';
import { Endpoint } from '../docs/endpoint.js';

/** `cal/events/v1/tags` (BEHAVIOR §5.4, §6.3, §7.6). No by-slug routes. */
@ApiTags('tags')
@CachedReads()
@Controller(`${NAMESPACE}/tags`)
export class TagsController {
  constructor(private readonly terms: TermsService) {}

  @Endpoint('GET', undefined, { summary: termDoc('tags.list') })
  list(@Query() query: ListTagsQuery, @Ctx() ctx: RequestContext) {
    return this.terms.list('tag', query, ctx);
  }

  @Endpoint('POST', undefined, { summary: termDoc('tags.create') })
  async create(
    @Body() body: CreateTagDto,
    @Ctx() ctx: RequestContext,
    @Res({ passthrough: true }) res: Response,
  ) {
    return withLocation(res, await this.terms.create('tag', body, ctx));
  }

  @Endpoint('GET', ':id', {
    summary: termDoc('tags.get'),
    param: { name: 'id', type: 'integer', description: termDoc('tags.id') },
  })
  get(@Param('id', RouteIdPipe) id: number, @Ctx() ctx: RequestContext) {
    return this.terms.get('tag', id, ctx);
  }

  // The plugin documents POST on the item as both update (200) and create (201) (BEHAVIOR §3).
  @Endpoint('POST', ':id', {
    summary: termDoc('tags.update'),
    param: { name: 'id', type: 'integer', description: termDoc('tags.id') },
    status: 200,
  })
  update(
    @Param('id', RouteIdPipe) id: number,
    @Body() body: UpdateTagDto,
    @Ctx() ctx: RequestContext,
  ) {
    return this.terms.update('tag', id, body, ctx);
  }

  // PUT and PATCH behave as POST and are not documented separately (BEHAVIOR §3).
  @Endpoint('PUT', ':id')
  put(
    @Param('id', RouteIdPipe) id: number,
    @Body() body: UpdateTagDto,
    @Ctx() ctx: RequestContext,
  ) {
    return this.terms.update('tag', id, body, ctx);
  }

  @Endpoint('PATCH', ':id')
  patch(
    @Param('id', RouteIdPipe) id: number,
    @Body() body: UpdateTagDto,
    @Ctx() ctx: RequestContext,
  ) {
    return this.terms.update('tag', id, body, ctx);
  }

  @Endpoint('DELETE', ':id', {
    summary: termDoc('tags.delete'),
    param: { name: 'id', type: 'integer', description: termDoc('tags.id') },
  })
  delete(@Param('id', RouteIdPipe) id: number, @Ctx() ctx: RequestContext) {
    return this.terms.delete('tag', id, ctx);
  }
}
