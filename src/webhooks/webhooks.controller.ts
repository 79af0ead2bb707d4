import { Body, Controller, Param, Query, UseGuards } from '@nestjs/common';
import { ApiParam, ApiTags } from '@nestjs/swagger';
import { NAMESPACE } from '../common/http/links.js';
import { OwnNamespaceOnly } from '../common/http/own-namespace.js';
import { Ctx, type RequestContext } from '../common/http/request-context.js';
import { RouteIdPipe } from '../common/http/route-id.pipe.js';
import { Endpoint } from '../docs/endpoint.js';
import {
  CreateWebhookDto,
  ListDeliveriesQuery,
  UpdateWebhookDto,
  webhookDoc,
} from './dto/webhook.dto.js';
import { WebhooksService } from './webhooks.service.js';

const ID = { name: 'id', type: 'integer', description: webhookDoc('id') } as const;
const DELIVERY = {
  name: 'delivery',
  type: 'integer',
  description: webhookDoc('delivery_id'),
} as const;

/** `cal/events/v1/webhooks` (CONTRACT "Webhooks"): administrators manage subscriptions. */
@ApiTags('webhooks')
@UseGuards(OwnNamespaceOnly)
@Controller(`${NAMESPACE}/webhooks`)
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Endpoint('GET', undefined, { summary: webhookDoc('list') })
  list(@Ctx() ctx: RequestContext) {
    return this.webhooks.list(ctx.actor, ctx.language);
  }

  @Endpoint('POST', undefined, { summary: webhookDoc('create') })
  create(@Body() body: CreateWebhookDto, @Ctx() ctx: RequestContext) {
    return this.webhooks.create(body, ctx.actor, ctx.language);
  }

  @Endpoint('GET', ':id', { summary: webhookDoc('get'), param: ID })
  get(@Param('id', RouteIdPipe) id: number, @Ctx() ctx: RequestContext) {
    return this.webhooks.get(id, ctx.actor, ctx.language);
  }

  @Endpoint('POST', ':id', { summary: webhookDoc('update'), param: ID, status: 200 })
  update(
    @Param('id', RouteIdPipe) id: number,
    @Body() body: UpdateWebhookDto,
    @Ctx() ctx: RequestContext,
  ) {
    return this.webhooks.update(id, body, ctx.actor, ctx.language);
  }

  @Endpoint('PUT', ':id')
  put(
    @Param('id', RouteIdPipe) id: number,
    @Body() body: UpdateWebhookDto,
    @Ctx() ctx: RequestContext,
  ) {
    return this.webhooks.update(id, body, ctx.actor, ctx.language);
  }

  @Endpoint('PATCH', ':id')
  patch(
    @Param('id', RouteIdPipe) id: number,
    @Body() body: UpdateWebhookDto,
    @Ctx() ctx: RequestContext,
  ) {
    return this.webhooks.update(id, body, ctx.actor, ctx.language);
  }

  @Endpoint('DELETE', ':id', { summary: webhookDoc('delete'), param: ID })
  remove(@Param('id', RouteIdPipe) id: number, @Ctx() ctx: RequestContext) {
    return this.webhooks.remove(id, ctx.actor, ctx.language);
  }

  @Endpoint('POST', ':id/rotate-secret', {
    summary: webhookDoc('rotate_secret'),
    param: ID,
    status: 200,
  })
  rotateSecret(@Param('id', RouteIdPipe) id: number, @Ctx() ctx: RequestContext) {
    return this.webhooks.rotateSecret(id, ctx.actor, ctx.language);
  }

  @Endpoint('GET', ':id/deliveries', { summary: webhookDoc('deliveries'), param: ID })
  deliveries(
    @Param('id', RouteIdPipe) id: number,
    @Query() query: ListDeliveriesQuery,
    @Ctx() ctx: RequestContext,
  ) {
    return this.webhooks.deliveries(id, query, ctx.actor, ctx.language);
  }

  @Endpoint('POST', ':id/deliveries/:delivery/replay', {
    summary: webhookDoc('replay'),
    param: ID,
    status: 202,
  })
  @ApiParam(DELIVERY)
  replay(
    @Param('id', RouteIdPipe) id: number,
    @Param('delivery', RouteIdPipe) delivery: number,
    @Ctx() ctx: RequestContext,
  ) {
    return this.webhooks.replay(id, delivery, ctx.actor, ctx.language);
  }
}
