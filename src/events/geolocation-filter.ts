import { Injectable } from '@nestjs/common';
import { t, type Text } from '../common/errors/api-error.js';
import { toBoolean } from '../common/http/transforms.js';
import type {
  ListConditionPort,
  ListParameterContext,
  ListParameterContributor,
  ParsedListParameter,
} from '../extensions/contracts.js';
import { ExtensionRegistry } from '../extensions/registry.js';
import { parseCoordinate } from './event-filters.js';
import type { Geofence } from './geofence.js';
import { geofenceCondition, HAS_GEO_CONDITION } from './geofence-sql.js';

/** `geoloc` and the fence of `geoloc_lat` + `geoloc_lng`, as the list applies them. */
interface GeolocationFilter {
  hasGeo?: boolean;
  fence?: Geofence;
}

const PAIR = { geoloc_lat: 'geoloc_lng', geoloc_lng: 'geoloc_lat' } as const;
const LIMITS = { geoloc_lat: 90, geoloc_lng: 180 } as const;

/**
 * The events list's geolocation parameters (CONTRACT §6) as a list-parameter contributor of the
 * extension surface (docs/extending.md): `geoloc` (only events whose venue has coordinates) and
 * the geofence (`geoloc_lat` + `geoloc_lng`, the GEOFENCE_RADIUS setting's radius). Their
 * documentation stays the list DTO's (the plugin's order).
 */
const geolocationParameters: ListParameterContributor<GeolocationFilter> = {
  parameters: ['geoloc', 'geoloc_lat', 'geoloc_lng'],
  documentation: {},
  parse(query, ctx) {
    return parseGeolocation(query, ctx);
  },
  echo: (value) => ({
    geoloc: value.hasGeo ? 1 : undefined,
    geoloc_lat: value.fence?.lat,
    geoloc_lng: value.fence?.lng,
  }),
  where(value: GeolocationFilter, port: ListConditionPort) {
    // Most venues have coordinates: the few without them make a small set that the engines
    // build once, while each event's venue comes from IDX_events_listing.
    if (value.hasGeo) port.where(HAS_GEO_CONDITION);
    if (value.fence) port.where(...geofenceCondition(value.fence));
  },
  // The venues' coordinates decide what the filtered list holds.
  cacheTags: () => ['venues'],
};

function parseGeolocation(
  query: Readonly<Record<string, unknown>>,
  ctx: ListParameterContext,
): ParsedListParameter<GeolocationFilter> {
  const errors: Record<string, Text> = {};
  const out: GeolocationFilter = {};
  if (query.geoloc !== undefined) {
    const geoloc = toBoolean(query.geoloc);
    if (typeof geoloc !== 'boolean') {
      errors.geoloc = t('validation.type', { name: 'geoloc', type: 'boolean' });
    } else if (geoloc) out.hasGeo = true;
  }
  const values: Partial<Record<keyof typeof PAIR, number>> = {};
  for (const name of ['geoloc_lat', 'geoloc_lng'] as const) {
    const raw = query[name];
    if (raw === undefined) {
      if (query[PAIR[name]] !== undefined)
        errors[name] = t('validation.coordinate_pair', { name, other: PAIR[name] });
      continue;
    }
    const value = parseCoordinate(raw);
    if (value === undefined) errors[name] = t('validation.type', { name, type: 'number' });
    else if (Math.abs(value) > LIMITS[name])
      errors[name] = t('validation.coordinate_range', {
        name,
        max: LIMITS[name],
        count: LIMITS[name],
      });
    else values[name] = value;
  }
  if (Object.keys(errors).length) return { errors };
  if (values.geoloc_lat !== undefined && values.geoloc_lng !== undefined) {
    out.fence = {
      lat: values.geoloc_lat,
      lng: values.geoloc_lng,
      radiusKm: ctx.settings.geofenceRadiusKm,
    };
  }
  return out.hasGeo || out.fence ? { value: out } : {};
}

/** Registers geolocation on the surface, as any module registers its parameters. */
@Injectable()
export class GeolocationRegistration {
  constructor(registry: ExtensionRegistry) {
    registry.register({ name: 'geolocation', listParameters: [geolocationParameters] });
  }
}
