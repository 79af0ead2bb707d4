import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { DatabaseModule } from '../database/database.module.js';
import { ConsoleController } from './console.controller.js';
import { SessionController } from './session.controller.js';

/** The editors' console: its built files and its login, session and logout (CONTRACT §2). */
@Module({
  imports: [AuthModule, DatabaseModule],
  controllers: [SessionController, ConsoleController],
})
export class ConsoleModule {}
