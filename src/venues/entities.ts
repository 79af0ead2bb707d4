export const venuesEntities: Function[] = [];
