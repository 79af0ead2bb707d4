import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { I18nModule } from 'nestjs-i18n';
import { AuthModule } from '../auth/auth.module.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { ConfigModule } from '../config/config.module.js';
import { CalLanguageResolver } from '../common/i18n/language.resolver.js';
import { PostsModule } from '../common/posts/posts.module.js';
import { dataSourceOptions } from '../database/data-source.js';
import { WritesModule } from '../database/writes.module.js';
import { ImporterModule } from '../importer/importer.module.js';
import { I18N_DIR } from '../paths.js';

/** What the import commands need: the CLI's database and users, the resource services, messages. */
@Module({
  imports: [
    ConfigModule,
    TypeOrmModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({ ...dataSourceOptions(config), retryAttempts: 0 }),
    }),
    I18nModule.forRoot({
      fallbackLanguage: 'en',
      loaderOptions: { path: I18N_DIR, watch: false },
      // Never asked (no requests here); given so that nestjs-i18n does not log their absence.
      resolvers: [CalLanguageResolver],
      throwOnMissingKey: false,
      logging: false,
    }),
    AuthModule,
    WritesModule,
    PostsModule,
    ImporterModule,
  ],
})
export class ImportCliModule {}
