/** A JSON schema of the OpenAPI document, as the hand-written schema lists build it. */
export type Schema = Record<string, unknown>;
