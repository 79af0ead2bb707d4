/**
 * The geofence of the events list (`geoloc_lat` + `geoloc_lng`, CONTRACT §6): the venues within a
 * great-circle distance of a point, as the premium extension's "map view search distance limit"
 * defines it. Plain numbers only: the repository turns a fence into SQL (a bounding box on the
 * indexed coordinates, then the exact haversine test).
 */

/** Mean Earth radius (IUGG), the sphere the distances are measured on. */
const EARTH_RADIUS_KM = 6371.0088;

export interface Geofence {
  lat: number;
  lng: number;
  radiusKm: number;
}

/** Longitude ranges (degrees, each `[min, max]` within ±180) and a latitude range. */
export interface BoundingBox {
  minLat: number;
  maxLat: number;
  lngRanges: Array<[number, number]>;
}

const rad = (deg: number) => (deg * Math.PI) / 180;
const deg = (radians: number) => (radians * 180) / Math.PI;

/** Great-circle distance in km (haversine); used by tests and as the reference of the SQL. */
export function distanceKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.sqrt(haversine(lat1, lng1, lat2, lng2)));
}

/** hav(θ) of the central angle θ between two points: what the SQL compares. */
export function haversine(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const dLat = Math.sin(rad(lat2 - lat1) / 2);
  const dLng = Math.sin(rad(lng2 - lng1) / 2);
  return dLat * dLat + Math.cos(rad(lat1)) * Math.cos(rad(lat2)) * dLng * dLng;
}

/**
 * The haversine limit of a fence: a point lies inside when hav(θ) ≤ this, θ being its central
 * angle from the centre. A radius of half the globe or more takes every point.
 */
export function haversineLimit(radiusKm: number): number {
  const angle = Math.min(radiusKm / EARTH_RADIUS_KM, Math.PI);
  const s = Math.sin(angle / 2);
  return s * s;
}

/**
 * The smallest latitude/longitude box around the fence. Near a pole (the cap reaches it) the box
 * spans every longitude; across the antimeridian its longitude range splits in two.
 */
export function boundingBox(fence: Geofence): BoundingBox {
  const angle = fence.radiusKm / EARTH_RADIUS_KM;
  const all: Array<[number, number]> = [[-180, 180]];
  if (angle >= Math.PI) return { minLat: -90, maxLat: 90, lngRanges: all };
  const minLat = fence.lat - deg(angle);
  const maxLat = fence.lat + deg(angle);
  if (minLat <= -90 || maxLat >= 90) {
    return { minLat: Math.max(minLat, -90), maxLat: Math.min(maxLat, 90), lngRanges: all };
  }
  // The meridians tangent to the cap (Bronshtein; J. P. Matuschek, "Finding points within a
  // distance of a latitude/longitude using bounding coordinates").
  const ratio = Math.sin(angle) / Math.cos(rad(fence.lat));
  const dLng = ratio >= 1 ? 180 : deg(Math.asin(ratio));
  const lo = fence.lng - dLng;
  const hi = fence.lng + dLng;
  if (dLng >= 180 || hi - lo >= 360) return { minLat, maxLat, lngRanges: all };
  if (lo < -180)
    return {
      minLat,
      maxLat,
      lngRanges: [
        [lo + 360, 180],
        [-180, hi],
      ],
    };
  if (hi > 180)
    return {
      minLat,
      maxLat,
      lngRanges: [
        [lo, 180],
        [-180, hi - 360],
      ],
    };
  return { minLat, maxLat, lngRanges: [[lo, hi]] };
}
