/**
 * Descriptions in decorators are i18n keys, translated per language when the OpenAPI documents
 * are built. Shared texts live in `i18n/<lang>/doc.json` (`doc('common.page')` → `doc.common.page`);
 * each resource keeps its own in `i18n/<lang>/<resource>.json` under `doc`
 * (`resourceDoc('events')('page')` → `events.doc.page`). These helpers exist so keys are greppable.
 */
export const doc = (key: string) => `doc.${key}`;
export const resourceDoc = (resource: string) => (key: string) => `${resource}.doc.${key}`;
export const DOC_KEY = /^([a-z_]+\.)?doc\.[A-Za-z0-9_.-]+$/;
