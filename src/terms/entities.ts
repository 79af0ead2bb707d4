export const termsEntities: Function[] = [];
