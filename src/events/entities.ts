import { EventEntity, EventOrganizerEntity } from './event.entity.js';

export const eventsEntities = [EventEntity, EventOrganizerEntity];
