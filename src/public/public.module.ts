import { ExtensionsModule } from '../extensions/extensions.module.js';
import { Module } from '@nestjs/common';
import { EventsModule } from '../events/events.module.js';
import { OrganizersModule } from '../organizers/organizers.module.js';
import { TermsModule } from '../terms/terms.module.js';
import { VenuesModule } from '../venues/venues.module.js';
import { PagesController } from './pages.controller.js';
import { EventPages } from './event-pages.js';
import { ListPages } from './list-pages.js';
import { PageFrame } from './page-frame.js';
import { Views } from './views.js';
import { CalendarController } from './calendar/calendar.controller.js';
import { CalendarPages } from './calendar/calendar-pages.js';
import { CalendarReads } from './calendar/calendar-reads.js';
import { CalendarRoutes } from './calendar/calendar-routes.js';

/** Public pages, the home page and the RSS feeds (CONTRACT §7). */
@Module({
  imports: [EventsModule, VenuesModule, OrganizersModule, TermsModule, ExtensionsModule],
  // PagesController first: `/events/category/*path` is its route before `/events/*path`.
  controllers: [PagesController, CalendarController],
  providers: [
    PageFrame,
    EventPages,
    ListPages,
    Views,
    CalendarReads,
    CalendarPages,
    CalendarRoutes,
  ],
})
export class PublicModule {}

/**
 * The routes of PagesController, which BASE_PATH does not prefix: the payloads' `url`s are
 * `{SITE_URL}/event/{slug}/`, and the home page is the site's `/` (configure-app.ts).
 */
export const PUBLIC_ROUTES = [
  '/',
  'assets/cal.css',
  'feed',
  'event/:slug',
  'event/:slug/:day',
  'event/:slug/:day/:index',
  'venue/:slug',
  'organizer/:slug',
  'tag/:slug',
  'tag/:slug/feed',
  'events/category/*path',
  'events',
  'events/*path',
  'embed/events',
  'embed/events/*path',
  'embed.js',
];
