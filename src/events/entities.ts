export const eventsEntities: Function[] = [];
