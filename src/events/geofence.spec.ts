import { parseCoordinate } from './event-filters.js';
import { boundingBox, distanceKm, haversine, haversineLimit } from './geofence.js';

describe('geofence', () => {
  it('measures great-circle distances', () => {
    // Budapest to Vienna: 214 km on the mean sphere.
    expect(distanceKm(47.4979, 19.0402, 48.2082, 16.3738)).toBeCloseTo(214.4, 0);
    expect(distanceKm(0, 179.5, 0, -179.5)).toBeCloseTo(111.2, 1);
    expect(distanceKm(89.5, 0, 89.5, 180)).toBeCloseTo(111.2, 1);
  });

  it('keeps a point inside exactly when its distance is within the radius', () => {
    const limit = haversineLimit(40);
    expect(haversine(0, 0, 0, 0.359) <= limit).toBe(true); // 39.9 km
    expect(haversine(0, 0, 0, 0.361) <= limit).toBe(false); // 40.1 km
    expect(haversineLimit(1e9)).toBe(1);
  });

  it('is one box away from the poles and the antimeridian', () => {
    const box = boundingBox({ lat: 47.5, lng: 19, radiusKm: 40 });
    expect(box.minLat).toBeCloseTo(47.14, 2);
    expect(box.maxLat).toBeCloseTo(47.86, 2);
    expect(box.lngRanges).toHaveLength(1);
    const [[lo, hi]] = box.lngRanges;
    expect(hi - 19).toBeCloseTo(19 - lo, 9);
    expect(hi - 19).toBeCloseTo(0.532, 3);
  });

  it('splits its longitudes across the antimeridian, on either side', () => {
    const east = boundingBox({ lat: -17.7, lng: 179.9, radiusKm: 40 }).lngRanges;
    expect(east).toHaveLength(2);
    expect(east[0][1]).toBe(180);
    expect(east[1][0]).toBe(-180);
    expect(east[1][1]).toBeCloseTo(-179.72, 2);
    const west = boundingBox({ lat: -17.7, lng: -179.9, radiusKm: 40 }).lngRanges;
    expect(west[0][0]).toBeCloseTo(179.72, 2);
    expect(west[1]).toEqual([-180, expect.closeTo(-179.52, 2) as number]);
  });

  it('takes every longitude when the fence reaches a pole', () => {
    expect(boundingBox({ lat: 89.9, lng: 10, radiusKm: 40 })).toEqual({
      minLat: expect.closeTo(89.54, 2) as number,
      maxLat: 90,
      lngRanges: [[-180, 180]],
    });
    expect(boundingBox({ lat: -90, lng: 0, radiusKm: 1 }).lngRanges).toEqual([[-180, 180]]);
    expect(boundingBox({ lat: 0, lng: 0, radiusKm: 30000 })).toEqual({
      minLat: -90,
      maxLat: 90,
      lngRanges: [[-180, 180]],
    });
  });
});

describe('parseCoordinate', () => {
  it.each([
    ['47.5', 47.5],
    [' -19 ', -19],
    ['+.5', 0.5],
    ['1.', 1],
    ['1e1', 10],
    [12, 12],
  ])('reads %j', (value, expected) => expect(parseCoordinate(value)).toBe(expected));

  it.each(['', ' ', 'abc', '0x10', '1,5', '1e999', 'Infinity', 'NaN', '.', '-', ['1'], null, NaN])(
    'refuses %j',
    (value) => expect(parseCoordinate(value)).toBeUndefined(),
  );
});
