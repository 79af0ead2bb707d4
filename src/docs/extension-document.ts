import type { OpenAPIObject } from '@nestjs/swagger';
import type { RecordKindName } from '../extensions/contracts.js';
import type { ExtensionRegistry } from '../extensions/registry.js';
import type { Schema } from './schema.js';
import type { Operation } from './tec-document.js';

const SCHEMA_OF: Record<RecordKindName, string> = {
  event: 'Event',
  venue: 'Venue',
  organizer: 'Organizer',
};

/**
 * The record schemas `document` has (with properties): each one's name, schema and properties,
 * and the fields the modules contribute to the payload of its kind, by name.
 */
function recordSchemas(document: OpenAPIObject, registry: ExtensionRegistry) {
  const schemas = (document.components?.schemas ?? {}) as Record<string, Schema>;
  return (Object.keys(SCHEMA_OF) as RecordKindName[]).flatMap((kind) => {
    const name = SCHEMA_OF[kind];
    const schema = schemas[name];
    if (!schema?.properties) return [];
    const properties = schema.properties as Record<string, Schema>;
    const fields = registry
      .payload(kind)
      .flatMap((contributor) => Object.entries(contributor.fields));
    return [{ name, schema, properties, fields }];
  });
}

/**
 * The modules' parts of the OpenAPI document (tribe_rest_swagger_*_documentation): their payload
 * fields in the record schemas, their list parameters on `GET /events` (before `i18n_language`,
 * which stays last), their write fields in the write bodies. Descriptions stay keys of the
 * modules' catalogues, translated with the document. Changes `document` in place.
 */
export function addExtensionDocumentation(
  document: OpenAPIObject,
  registry: ExtensionRegistry,
): void {
  const schemas = (document.components?.schemas ?? {}) as Record<string, Schema>;
  for (const { name, schema, properties, fields } of recordSchemas(document, registry)) {
    // A copy: the core's schema objects are shared by every application of the process.
    const extended = { ...properties };
    for (const [field, value] of fields) extended[field] = (value as { schema: Schema }).schema;
    schemas[name] = { ...schema, properties: extended };
  }
  const list = (document.paths['/events'] as Record<string, Operation> | undefined)?.get;
  if (list?.parameters) {
    const known = new Set(list.parameters.map((p) => p.name));
    const last = list.parameters.findIndex((p) => p.name === 'i18n_language');
    const added = registry.listParameters.flatMap((contributor) =>
      contributor.parameters
        .filter((name) => !known.has(name) && contributor.documentation[name])
        .map((name) => {
          const { description, ...schema } = contributor.documentation[name];
          return { name, in: 'query', required: false, description: String(description), schema };
        }),
    );
    list.parameters.splice(last < 0 ? list.parameters.length : last, 0, ...added);
  }
  for (const name of ['CreateEventDto', 'UpdateEventDto']) {
    const properties = schemas[name]?.properties as Record<string, Schema> | undefined;
    if (!properties) continue;
    for (const contributor of registry.writes) Object.assign(properties, contributor.fields);
  }
}

/** The fields of records that the plugin's namespace does not carry (ContributedField.namespaces). */
export function withoutOwnNamespaceFields(
  document: OpenAPIObject,
  registry: ExtensionRegistry,
): void {
  for (const { properties, fields } of recordSchemas(document, registry)) {
    for (const [name, field] of fields) {
      const namespaces = (field as { namespaces?: readonly string[] }).namespaces;
      if (namespaces && !namespaces.includes('plugin')) delete properties[name];
    }
  }
}
