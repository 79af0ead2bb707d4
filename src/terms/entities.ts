import { TermEntity } from './term.entity.js';

export const termsEntities: Function[] = [TermEntity];
