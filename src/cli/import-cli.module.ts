import { Module } from '@nestjs/common';
import { MessagesModule } from '../common/i18n/messages.module.js';
import { ImporterModule } from '../importer/importer.module.js';
import { CliModule } from './cli.module.js';

/**
 * What the import commands need: everything of the other commands (database, users, writes,
 * the write generation), the messages and the resource services (through ImporterModule).
 */
@Module({ imports: [CliModule, MessagesModule, ImporterModule] })
export class ImportCliModule {}
