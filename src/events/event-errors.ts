import { ApiError, t } from '../common/errors/api-error.js';

/** The answer for an event id (or provisional id) no record stands behind. */
export const notFound = (id: number) =>
  new ApiError('rest-event-not-found', 404, {}, t('errors.rest-event-not-found', { id }));
/** The answer for an id that names a record of another kind (a venue, an organizer, ...). */
export const notAnEvent = () => new ApiError('rest-invalid-event-id', 400);
