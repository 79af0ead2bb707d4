/**
 * Descriptions in decorators are i18n keys (`doc.events.page`), translated per language when the
 * OpenAPI documents are built. This helper only exists so the keys are easy to grep.
 */
export const doc = (key: string) => `doc.${key}`;
export const DOC_KEY = /^doc\.[A-Za-z0-9_.-]+$/;
