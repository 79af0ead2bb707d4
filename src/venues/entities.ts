import { VenueEntity } from './venue.entity.js';

export const venuesEntities: Function[] = [VenueEntity];
