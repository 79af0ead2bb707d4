import {
  t,
  toBoolean,
  type ListParameterContributor,
  type ParsedListParameter,
} from '../../extensions/index.js';
import { VIRTUAL_TAG } from './virtual-writes.js';

/** `GET /events?virtual=true|false`: only online events, or only the others. */
export const virtualFilter: ListParameterContributor<boolean> = {
  parameters: ['virtual'],
  documentation: {
    virtual: { type: 'boolean', description: 'virtual_events.doc.list_virtual' },
  },
  parse(query): ParsedListParameter<boolean> {
    if (query.virtual === undefined) return {};
    const value = toBoolean(query.virtual);
    if (typeof value !== 'boolean')
      return { errors: { virtual: t('validation.type', { name: 'virtual', type: 'boolean' }) } };
    return { value };
  },
  echo: (value) => ({ virtual: value ? 1 : 0 }),
  where(value, port) {
    port.where(
      `${value ? '' : 'NOT '}EXISTS (SELECT 1 FROM virtual_events ve WHERE ve.event_id = {event})`,
    );
  },
  cacheTags: () => [VIRTUAL_TAG],
};
