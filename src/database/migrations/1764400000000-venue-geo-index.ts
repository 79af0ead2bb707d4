import { MigrationInterface, QueryRunner, TableIndex } from 'typeorm';

/**
 * The events list's geofence (issue 20) picks venues by a latitude range, then a longitude range
 * and the exact distance: an index in that order finds the venues of a bounding box without
 * reading the table (InnoDB adds the id to it; SQLite's rowid is the id).
 */
export class VenueGeoIndex1764400000000 implements MigrationInterface {
  name = 'VenueGeoIndex1764400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createIndex(
      'venues',
      new TableIndex({ name: 'IDX_venues_geo', columnNames: ['geo_lat', 'geo_lng'] }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropIndex('venues', 'IDX_venues_geo');
  }
}
