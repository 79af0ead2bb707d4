import type { Language } from '../config/config.js';
import type { TecEvent, TecOrganizer, TecVenue } from '../common/payload/tec-payload.js';
import { plainText } from '../feeds/plain-text.js';
import { isoWhen } from './format.js';

const SCHEMA = 'https://schema.org';

const defined = (data: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(data).filter(([, v]) => v !== undefined && v !== '' && v !== null),
  );

function place(venue: TecVenue | []): Record<string, unknown> | undefined {
  if (!venue || Array.isArray(venue) || !venue.venue) return undefined;
  const address = defined({
    '@type': 'PostalAddress',
    streetAddress: plainText(venue.address),
    addressLocality: plainText(venue.city),
    addressRegion: plainText(venue.stateprovince || venue.province || venue.state),
    postalCode: plainText(venue.zip),
    addressCountry: plainText(venue.country),
  });
  const geo =
    typeof venue.geo_lat === 'number' && typeof venue.geo_lng === 'number'
      ? { '@type': 'GeoCoordinates', latitude: venue.geo_lat, longitude: venue.geo_lng }
      : undefined;
  return defined({
    '@type': 'Place',
    name: plainText(venue.venue),
    address,
    geo,
    url: venue.url,
    telephone: plainText(venue.phone),
  });
}

function organizer(o: TecOrganizer): Record<string, unknown> {
  return defined({
    '@type': 'Organization',
    name: plainText(o.organizer),
    url: o.website || o.url,
    email: plainText(o.email),
    telephone: plainText(o.phone),
  });
}

/** ISO 4217 codes of the currency symbols people type (the record keeps the symbol only). */
const CURRENCIES: Record<string, string> = {
  $: 'USD',
  US$: 'USD',
  '€': 'EUR',
  '£': 'GBP',
  Ft: 'HUF',
  HUF: 'HUF',
  lei: 'RON',
  RON: 'RON',
  EUR: 'EUR',
  USD: 'USD',
  GBP: 'GBP',
};

/** The numeric price of a cost such as `$10 – $20` or `Free`: its lowest value, 0 when free. */
function lowestPrice(event: TecEvent): string | undefined {
  const values = event.cost_details.values;
  const numbers = values.map(Number).filter((n) => Number.isFinite(n));
  if (numbers.length) return String(Math.min(...numbers));
  return undefined;
}

/**
 * schema.org Event of a public page, built from the API's payload: Google's required
 * properties (name, startDate, location) and its recommended ones (description, endDate,
 * eventStatus, eventAttendanceMode, image, offers, organizer), plus inLanguage and url.
 */
export function eventJsonLd(
  event: TecEvent,
  url: string,
  language: Language,
): Record<string, unknown> {
  const price = lowestPrice(event);
  const symbol = event.cost_details.currency_symbol.trim();
  const currency = CURRENCIES[symbol] ?? (/^[A-Z]{3}$/.test(symbol) ? symbol : undefined);
  const organizers = event.organizer.map(organizer);
  const image = event.image ? event.image.url : undefined;
  return defined({
    '@context': SCHEMA,
    '@type': 'Event',
    name: plainText(event.title),
    description: plainText(event.excerpt) || plainText(event.description),
    startDate: isoWhen(event, 'start_date'),
    endDate: isoWhen(event, 'end_date'),
    eventStatus: `${SCHEMA}/EventScheduled`,
    eventAttendanceMode: `${SCHEMA}/OfflineEventAttendanceMode`,
    location: place(event.venue),
    organizer: organizers.length === 1 ? organizers[0] : organizers.length ? organizers : undefined,
    image: image ? [image] : undefined,
    offers:
      price !== undefined
        ? defined({
            '@type': 'Offer',
            price,
            priceCurrency: currency,
            url,
            availability: `${SCHEMA}/InStock`,
          })
        : undefined,
    inLanguage: language,
    url,
  });
}

/** JSON for a `<script type="application/ld+json">`: nothing in it can close the element. */
export function scriptJson(data: unknown): string {
  return JSON.stringify(data)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026');
}

/** A view item's place: the venue's name and page (its address and the rest are on that page). */
function placeLink(venue: TecVenue | []): Record<string, unknown> | undefined {
  if (!venue || Array.isArray(venue) || !venue.venue) return undefined;
  return defined({ '@type': 'Place', name: plainText(venue.venue), url: venue.url });
}

/**
 * schema.org Event of a calendar view's item: its name, dates, status, place (the venue's name
 * and page) and url; the event's page (its url) carries the rest, its place's address included.
 * A view lists up to a hundred, and its page is sent whole to every visitor: each stays small.
 * The attendance mode is left to the modules (an online event's, with its VirtualLocation):
 * a place alone says the event is held there.
 */
export function eventSummaryJsonLd(event: TecEvent, url: string): Record<string, unknown> {
  return defined({
    '@type': 'Event',
    name: plainText(event.title),
    startDate: isoWhen(event, 'start_date'),
    endDate: isoWhen(event, 'end_date'),
    eventStatus: `${SCHEMA}/EventScheduled`,
    location: placeLink(event.venue),
    url,
  });
}
