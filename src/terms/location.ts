import type { Response } from 'express';
import type { TecTerm } from './term.mapper.js';

/** A create answers 201 with `Location: {base}/categories/{id}` (BEHAVIOR §7.6, D15). */
export function withLocation(res: Response, term: TecTerm): TecTerm {
  res.setHeader('Location', term.urls.self);
  return term;
}
