import { OrganizerEntity } from './organizer.entity.js';

export const organizersEntities: Function[] = [OrganizerEntity];
