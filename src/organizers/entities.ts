export const organizersEntities: Function[] = [];
