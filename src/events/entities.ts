import { EventEntity, EventOrganizerEntity, EventTermEntity } from './event.entity.js';

export const eventsEntities = [EventEntity, EventOrganizerEntity, EventTermEntity];
