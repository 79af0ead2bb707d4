import { boundingBox, haversineLimit, type Geofence } from './geofence.js';

/**
 * Events whose venue has both coordinates (`geoloc`): the venues without them make a small set
 * that the engines build once (a set of the many with them was probed row by row: ten times
 * slower at 100,000 events). `{venue}` is the listed event's venue (the surface's port).
 */
export const HAS_GEO_CONDITION =
  '{venue} IS NOT NULL AND {venue} NOT IN (SELECT gv.id FROM venues gv WHERE gv.geo_lat IS NULL OR gv.geo_lng IS NULL)';

/**
 * Events whose venue lies within the fence: the venues of the bounding box (a range on the indexed
 * `IDX_venues_geo`, one or two longitude ranges), then the exact great-circle test
 * hav(θ) = sin²(Δφ/2) + cos φ₁·cos φ₂·sin²(Δλ/2) ≤ sin²(r/2R) — in SQL on both engines, so that
 * counts and pages stay exact in the same two queries. The venue set is uncorrelated: the engines
 * evaluate it once per query. Answers the condition (named parameters only) and its values.
 */
export function geofenceCondition(fence: Geofence): [string, Record<string, number>] {
  const box = boundingBox(fence);
  const lngRanges = box.lngRanges
    .filter(([lo, hi]) => lo > -180 || hi < 180)
    .map((_, i) => `gf.geo_lng BETWEEN :gfLngLo${i} AND :gfLngHi${i}`);
  const params: Record<string, number> = {
    gfMinLat: box.minLat,
    gfMaxLat: box.maxLat,
    gfLat: fence.lat,
    gfLng: fence.lng,
    gfCosLat: Math.cos((fence.lat * Math.PI) / 180),
    gfLimit: haversineLimit(fence.radiusKm),
  };
  box.lngRanges.forEach(([lo, hi], i) => {
    params[`gfLngLo${i}`] = lo;
    params[`gfLngHi${i}`] = hi;
  });
  const half = (column: string, centre: string) => `SIN(RADIANS(${column} - ${centre}) / 2)`;
  const dLat = half('gf.geo_lat', ':gfLat');
  const dLng = half('gf.geo_lng', ':gfLng');
  return [
    `{venue} IN (SELECT gf.id FROM venues gf WHERE gf.geo_lat BETWEEN :gfMinLat AND :gfMaxLat` +
      ` AND gf.geo_lng IS NOT NULL` +
      (lngRanges.length ? ` AND (${lngRanges.join(' OR ')})` : '') +
      ` AND ${dLat} * ${dLat} + :gfCosLat * COS(RADIANS(gf.geo_lat)) * ${dLng} * ${dLng} <= :gfLimit)`,
    params,
  ];
}
