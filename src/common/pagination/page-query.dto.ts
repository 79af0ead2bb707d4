import { OptionalPositiveInteger } from '../http/field-decorators.js';
import { doc } from '../i18n/doc-key.js';

/** `page` and `per_page` of every list route (BEHAVIOR §5.1): positive integers, else 400. */
export class PageQuery {
  @OptionalPositiveInteger(doc('common.page'), { default: 1 })
  page?: number;

  @OptionalPositiveInteger(doc('common.per_page'), { default: 10 })
  per_page?: number;
}
