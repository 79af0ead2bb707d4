import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { OwnNamespaceOnly } from '../common/http/own-namespace.js';
import { UsersAdminService } from './users-admin.service.js';
import { UsersController } from './users.controller.js';

/** The users routes (CONTRACT §2 "Users") over the users service the CLI uses too. */
@Module({
  imports: [AuthModule],
  controllers: [UsersController],
  providers: [UsersAdminService, OwnNamespaceOnly],
})
export class UsersModule {}
