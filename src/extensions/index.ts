/**
 * The extension surface: the one import path of a module that extends the service
 * (docs/extending.md). What is exported here is what the surface promises to keep stable.
 */
export type {
  ContributedField,
  ContributedRecord,
  EventPayloadContributor,
  EventWriteContributor,
  ExtensionContext,
  FieldVisibility,
  FragmentClass,
  LifecycleAction,
  LifecycleChange,
  LifecycleListener,
  ListConditionPort,
  ListParameterContext,
  ListParameterContributor,
  ModuleCatalogue,
  ModuleMigration,
  OpenApiSchema,
  OrganizerPayloadContributor,
  PageDetail,
  ParsedListParameter,
  PayloadContributor,
  RecordKindName,
  RestNamespaceName,
  StoredValues,
  VenuePayloadContributor,
} from './contracts.js';
export type {
  EventExtensionFields,
  OrganizerExtensionFields,
  VenueExtensionFields,
} from '../common/payload/tec-payload.js';
export { ExtensionRegistry, type ExtensionParts } from './registry.js';
export { ExtensionsModule } from './extensions.module.js';
/** The service's namespace: a module's routes live under it, and get its every address. */
export { NAMESPACE } from '../common/http/links.js';
/** A translatable reason (a key of the project's catalogues or of the module's own). */
export { t, type Text } from '../common/errors/api-error.js';
/**
 * A module's routes: `@Ctx() ctx: RequestContext` gives the request's language and caller
 * (`ctx.actor.user`, null without credentials); `forbidden(!!ctx.actor.user)` is the 401/403 of
 * WordPress (`rest_forbidden`); `ApiError` any other WordPress error body.
 */
export { ApiError, forbidden } from '../common/errors/api-error.js';
export { Ctx, type RequestContext } from '../common/http/request-context.js';
/** Query-string and form values as WordPress reads them. */
export { toBoolean, ToBoolean } from '../common/http/transforms.js';
export { isWebUrl } from '../common/http/web-url.js';
/** Validation messages: `typeMessage('boolean')`, `URL_REASON` ("must be an http(s) URL"). */
export { typeMessage } from '../common/http/validation.js';
export { URL_REASON } from '../common/http/validators.js';
