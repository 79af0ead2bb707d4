import { Body, Controller, Param, Query, Res, type Type } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { NAMESPACE } from '../common/http/links.js';
import { parameterTypes } from '../common/http/parameter-types.js';
import { CachedReads } from '../cache/cached-reads.js';
import { Ctx, type RequestContext } from '../common/http/request-context.js';
import { RouteIdPipe } from '../common/http/route-id.pipe.js';
import { Endpoint } from '../docs/endpoint.js';
import { termDoc } from './dto/term-docs.js';
import { withLocation } from './location.js';
import { TAXONOMIES, type Taxonomy } from './taxonomy.js';
import { TermQueries } from './term-queries.js';
import { TermWrites } from './term-writes.js';

export interface TermRoutesOptions {
  listQuery: Type<unknown>;
  createDto: Type<unknown>;
  updateDto: Type<unknown>;
}

/**
 * The routes of one taxonomy, `/categories` or `/tags` (BEHAVIOR §5.4, §6.3, §7.6): list,
 * create, and by id read, update (POST; PUT and PATCH behave alike and are not documented
 * separately, BEHAVIOR §3) and delete. No by-slug routes. The DTO classes are declared for the
 * validation pipe and the document with parameterTypes (a factory gets no emitted metadata).
 */
export function termController(taxonomy: Taxonomy, options: TermRoutesOptions): Type<object> {
  const collection = TAXONOMIES[taxonomy].collection;
  const doc = (key: string) => termDoc(`${collection}.${key}`);
  const ID = { name: 'id', type: 'integer', description: doc('id') } as const;
  type Input = never;

  @ApiTags(collection)
  @CachedReads({ tracked: true })
  @Controller(`${NAMESPACE}/${collection}`)
  class TermController {
    constructor(
      readonly queries: TermQueries,
      readonly writes: TermWrites,
    ) {}

    @Endpoint('GET', undefined, { summary: doc('list') })
    list(@Query() query: Input, @Ctx() ctx: RequestContext) {
      return this.queries.list(taxonomy, query, ctx);
    }

    @Endpoint('POST', undefined, { summary: doc('create') })
    async create(
      @Body() body: Input,
      @Ctx() ctx: RequestContext,
      @Res({ passthrough: true }) res: Response,
    ) {
      return withLocation(res, await this.writes.create(taxonomy, body, ctx));
    }

    @Endpoint('GET', ':id', { summary: doc('get'), param: ID })
    get(@Param('id', RouteIdPipe) id: number, @Ctx() ctx: RequestContext) {
      return this.queries.get(taxonomy, id, ctx);
    }

    // The plugin documents POST on the item as both update (200) and create (201) (BEHAVIOR §3).
    @Endpoint('POST', ':id', { summary: doc('update'), param: ID, status: 200 })
    update(@Param('id', RouteIdPipe) id: number, @Body() body: Input, @Ctx() ctx: RequestContext) {
      return this.writes.update(taxonomy, id, body, ctx);
    }

    @Endpoint('PUT', ':id')
    put(@Param('id', RouteIdPipe) id: number, @Body() body: Input, @Ctx() ctx: RequestContext) {
      return this.writes.update(taxonomy, id, body, ctx);
    }

    @Endpoint('PATCH', ':id')
    patch(@Param('id', RouteIdPipe) id: number, @Body() body: Input, @Ctx() ctx: RequestContext) {
      return this.writes.update(taxonomy, id, body, ctx);
    }

    @Endpoint('DELETE', ':id', { summary: doc('delete'), param: ID })
    delete(@Param('id', RouteIdPipe) id: number, @Ctx() ctx: RequestContext) {
      return this.writes.delete(taxonomy, id, ctx);
    }
  }

  const { listQuery, createDto, updateDto } = options;
  parameterTypes(TermController, {
    list: [listQuery, Object],
    create: [createDto, Object, Object],
    update: [Number, updateDto, Object],
    put: [Number, updateDto, Object],
    patch: [Number, updateDto, Object],
  });
  return TermController;
}
