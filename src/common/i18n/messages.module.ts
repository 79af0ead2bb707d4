import { I18nModule } from 'nestjs-i18n';
import { I18N_DIR } from '../../config/paths.js';
import { CalLanguageResolver } from './language.resolver.js';

/** The messages of en/hu/ro (`i18n/`), for the app and for the CLI commands that use services. */
export const MessagesModule = I18nModule.forRoot({
  fallbackLanguage: 'en',
  loaderOptions: { path: I18N_DIR, watch: false },
  resolvers: [CalLanguageResolver],
  throwOnMissingKey: false,
  logging: false,
});
