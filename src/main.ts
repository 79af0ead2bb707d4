import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module.js';
import { ConfigError, loadConfig } from './config/config.js';
import { configureApp } from './configure-app.js';

async function bootstrap() {
  try {
    loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      // One clear line naming the variable, no stack trace.
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const app = await NestFactory.create<NestExpressApplication>(AppModule);
  app.enableShutdownHooks();
  const config = configureApp(app);
  await app.listen(config.port, config.host);
  console.log(`cal/events/v1 listening on ${config.siteUrl}${config.basePath}/cal/events/v1`);
}

bootstrap().catch((error: unknown) => {
  console.error(`Failed to start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
