import { Global, Module, type DynamicModule } from '@nestjs/common';
import { APP_CONFIG, loadConfig, type AppConfig } from './config.js';

/**
 * The configuration, one object for the whole app (inject APP_CONFIG). Imported as is, it loads
 * the environment itself (tests, the CLI); main.ts passes the configuration it has already
 * loaded and checked with `ConfigModule.withValue`, so a server loads it once.
 */
@Global()
@Module({
  providers: [{ provide: APP_CONFIG, useFactory: () => loadConfig(process.env) }],
  exports: [APP_CONFIG],
})
export class ConfigModule {
  static withValue(config: AppConfig): DynamicModule {
    return {
      module: LoadedConfigModule,
      global: true,
      providers: [{ provide: APP_CONFIG, useValue: config }],
      exports: [APP_CONFIG],
    };
  }
}

@Module({})
class LoadedConfigModule {}
