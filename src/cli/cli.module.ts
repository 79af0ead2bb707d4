import { Module } from '@nestjs/common';
import { RecordCacheModule } from '../database/record-cache.module.js';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '../auth/auth.module.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { ConfigModule } from '../config/config.module.js';
import { PostsModule } from '../common/posts/posts.module.js';
import { dataSourceOptions } from '../database/data-source.js';
import { WritesModule } from '../database/writes.module.js';
import { SharedGeneration } from '../database/shared-generation.js';

/** What the CLI needs: configuration, the database, users and the trash purge, no HTTP. */
@Module({
  imports: [
    ConfigModule,
    TypeOrmModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({ ...dataSourceOptions(config), retryAttempts: 0 }),
    }),
    AuthModule,
    WritesModule,
    RecordCacheModule,
    PostsModule,
  ],
  // Writes made here (records:purge-trash, imports) count in the write generation, so running
  // servers on the same MySQL/MariaDB database drop their cached answers.
  providers: [SharedGeneration],
})
export class CliModule {}
