import { Body, Controller, Param, Query, Res, UseGuards } from '@nestjs/common';
import { ApiParam, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { NAMESPACE } from '../common/http/links.js';
import { OwnNamespaceOnly } from '../common/http/own-namespace.js';
import { Ctx, type RequestContext } from '../common/http/request-context.js';
import { RouteIdPipe } from '../common/http/route-id.pipe.js';
import { Endpoint } from '../docs/endpoint.js';
import {
  CreateApplicationPasswordDto,
  CreateUserDto,
  ListUsersQuery,
  UpdateUserDto,
  userDoc,
} from './dto/user.dto.js';
import { UsersAdminService } from './users-admin.service.js';

const ID = { name: 'id', type: 'integer', description: userDoc('id') } as const;
const UUID = { name: 'uuid', type: 'string', description: userDoc('uuid') } as const;

/**
 * `cal/events/v1/users` (CONTRACT §2 "Users"): administrators manage users and their application
 * passwords, with WordPress's `/wp/v2/users` names. Answers are personal: never cached.
 */
@ApiTags('users')
@UseGuards(OwnNamespaceOnly)
@Controller(`${NAMESPACE}/users`)
export class UsersController {
  constructor(private readonly users: UsersAdminService) {}

  @Endpoint('GET', undefined, { summary: userDoc('list') })
  async list(
    @Query() query: ListUsersQuery,
    @Ctx() ctx: RequestContext,
    @Res({ passthrough: true }) res: Response,
  ) {
    const { users, total, totalPages } = await this.users.list(query, ctx.actor);
    res.setHeader('X-WP-Total', String(total));
    res.setHeader('X-WP-TotalPages', String(totalPages));
    return users;
  }

  @Endpoint('POST', undefined, { summary: userDoc('create') })
  create(@Body() body: CreateUserDto, @Ctx() ctx: RequestContext) {
    return this.users.create(body, ctx.actor);
  }

  @Endpoint('GET', ':id', { summary: userDoc('get'), param: ID })
  get(@Param('id', RouteIdPipe) id: number, @Ctx() ctx: RequestContext) {
    return this.users.get(id, ctx.actor);
  }

  @Endpoint('POST', ':id', { summary: userDoc('update'), param: ID, status: 200 })
  update(
    @Param('id', RouteIdPipe) id: number,
    @Body() body: UpdateUserDto,
    @Ctx() ctx: RequestContext,
  ) {
    return this.users.update(id, body, ctx.actor);
  }

  @Endpoint('PUT', ':id')
  put(
    @Param('id', RouteIdPipe) id: number,
    @Body() body: UpdateUserDto,
    @Ctx() ctx: RequestContext,
  ) {
    return this.users.update(id, body, ctx.actor);
  }

  @Endpoint('PATCH', ':id')
  patch(
    @Param('id', RouteIdPipe) id: number,
    @Body() body: UpdateUserDto,
    @Ctx() ctx: RequestContext,
  ) {
    return this.users.update(id, body, ctx.actor);
  }

  @Endpoint('DELETE', ':id', { summary: userDoc('delete'), param: ID })
  remove(@Param('id', RouteIdPipe) id: number, @Ctx() ctx: RequestContext) {
    return this.users.remove(id, ctx.actor);
  }

  @Endpoint('GET', ':id/application-passwords', {
    summary: userDoc('application_passwords'),
    param: ID,
  })
  applicationPasswords(@Param('id', RouteIdPipe) id: number, @Ctx() ctx: RequestContext) {
    return this.users.applicationPasswords(id, ctx.actor);
  }

  @Endpoint('POST', ':id/application-passwords', {
    summary: userDoc('create_application_password'),
    param: ID,
  })
  createApplicationPassword(
    @Param('id', RouteIdPipe) id: number,
    @Body() body: CreateApplicationPasswordDto,
    @Ctx() ctx: RequestContext,
  ) {
    return this.users.createApplicationPassword(id, body.name, ctx.actor);
  }

  @Endpoint('DELETE', ':id/application-passwords/:uuid', {
    summary: userDoc('delete_application_password'),
    param: ID,
  })
  @ApiParam(UUID)
  revokeApplicationPassword(
    @Param('id', RouteIdPipe) id: number,
    @Param('uuid') uuid: string,
    @Ctx() ctx: RequestContext,
  ) {
    return this.users.revokeApplicationPassword(id, uuid, ctx.actor);
  }
}
