import {
  EventEntity,
  EventOrganizerEntity,
  EventTermEntity,
  OccurrenceEntity,
} from './event.entity.js';

export const eventsEntities = [
  EventEntity,
  EventOrganizerEntity,
  EventTermEntity,
  OccurrenceEntity,
];
