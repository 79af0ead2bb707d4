import { resourceDoc } from '../common/i18n/doc-key.js';
import { LANGUAGES } from '../config/config.js';
import { EVENT_TYPES } from './webhook-event-types.js';
import { adminResponses, ref, routeResponses, type ResponseObject, type Schema } from './schema.js';

/** `webhooks.doc.<key>` in i18n/<lang>/webhooks.json. */
const wdoc = resourceDoc('webhooks');
const prop = (type: string, key: string, extra: Schema = {}): Schema => ({
  type,
  description: wdoc(`schema.${key}`),
  ...extra,
});
const nullable = (type: string, key: string, extra: Schema = {}) =>
  prop(type, key, { nullable: true, ...extra });
const object = (properties: Record<string, Schema>, required: string[]): Schema => ({
  type: 'object',
  properties,
  required,
});

const SUBSCRIPTION_FIELDS = [
  'id',
  'url',
  'events',
  'language',
  'include_private',
  'active',
  'status',
  'failing_since',
  'failure_reason',
  'created',
  'modified',
];

const subscription = {
  id: prop('integer', 'id'),
  url: prop('string', 'url'),
  events: prop('array', 'events', { items: { type: 'string', enum: [...EVENT_TYPES] } }),
  language: nullable('string', 'language', { enum: [...LANGUAGES, null] }),
  include_private: prop('boolean', 'include_private'),
  active: prop('boolean', 'active'),
  status: prop('string', 'status', { enum: ['active', 'paused', 'failing'] }),
  failing_since: nullable('string', 'failing_since', { format: 'date-time' }),
  failure_reason: nullable('string', 'failure_reason'),
  created: prop('string', 'created', { format: 'date-time' }),
  modified: prop('string', 'modified', { format: 'date-time' }),
};

/** The webhook routes' bodies (CONTRACT "Webhooks"). */
export const WEBHOOK_SCHEMAS: Record<string, Schema> = {
  Webhook: object(subscription, SUBSCRIPTION_FIELDS),
  WebhookWithSecret: object(
    {
      ...subscription,
      secret: prop('string', 'secret', { pattern: '^whsec_' }),
      previous_secret_expires: prop('string', 'previous_secret_expires', { format: 'date-time' }),
    },
    [...SUBSCRIPTION_FIELDS, 'secret'],
  ),
  WebhookList: object(
    {
      webhooks: prop('array', 'webhooks', { items: ref('Webhook') }),
      total: prop('integer', 'total'),
    },
    ['webhooks', 'total'],
  ),
  WebhookDelivery: object(
    {
      id: prop('integer', 'delivery_id'),
      webhook_id: prop('integer', 'webhook_id'),
      message_id: prop('string', 'message_id'),
      type: prop('string', 'type', { enum: EVENT_TYPES.slice(1) }),
      kind: prop('string', 'kind'),
      record_id: prop('integer', 'record_id'),
      status: prop('string', 'delivery_status', { enum: ['pending', 'delivered', 'failed'] }),
      attempts: prop('integer', 'attempts'),
      response_status: nullable('integer', 'response_status'),
      error: nullable('string', 'error'),
      failure_reason: nullable('string', 'delivery_failure_reason'),
      duration_ms: nullable('integer', 'duration_ms'),
      created: prop('string', 'delivery_created', { format: 'date-time' }),
      next_attempt: nullable('string', 'next_attempt', { format: 'date-time' }),
      finished: nullable('string', 'finished', { format: 'date-time' }),
    },
    [
      'id',
      'webhook_id',
      'message_id',
      'type',
      'kind',
      'record_id',
      'status',
      'attempts',
      'response_status',
      'error',
      'failure_reason',
      'duration_ms',
      'created',
      'next_attempt',
      'finished',
    ],
  ),
  WebhookDeliveryList: object(
    {
      deliveries: prop('array', 'deliveries', { items: ref('WebhookDelivery') }),
      total: prop('integer', 'total_deliveries'),
      total_pages: prop('integer', 'total_pages'),
    },
    ['deliveries', 'total', 'total_pages'],
  ),
};

const { ok, error, guarded, item } = adminResponses(wdoc);

/** POST, PUT and PATCH of one record answer alike. */
const UPDATED = {
  '200': ok('update_200', 'Webhook'),
  '400': error('write_400'),
  ...item,
};

/** The documented responses of each webhook route, by method and path (relative to the namespace). */
const WEBHOOK_RESPONSES: Record<string, Record<string, ResponseObject>> = {
  'get /webhooks': { '200': ok('list_200', 'WebhookList'), ...guarded },
  'post /webhooks': {
    '201': ok('create_201', 'WebhookWithSecret'),
    '400': error('write_400'),
    ...guarded,
  },
  'get /webhooks/{id}': { '200': ok('get_200', 'Webhook'), ...item },
  'post /webhooks/{id}': UPDATED,
  'put /webhooks/{id}': UPDATED,
  'patch /webhooks/{id}': UPDATED,
  'delete /webhooks/{id}': { '200': ok('delete_200', 'Webhook'), ...item },
  'post /webhooks/{id}/rotate-secret': { '200': ok('rotate_200', 'WebhookWithSecret'), ...item },
  'get /webhooks/{id}/deliveries': {
    '200': ok('deliveries_200', 'WebhookDeliveryList'),
    '400': error('list_400'),
    ...item,
  },
  'post /webhooks/{id}/deliveries/{delivery}/replay': {
    '202': ok('replay_202', 'WebhookDelivery'),
    ...item,
  },
};

/** The documented responses of a webhook route (`path` relative to the namespace). */
export const webhookResponses = routeResponses(WEBHOOK_RESPONSES);
