import { Injectable, Optional } from '@nestjs/common';
import type { KeyedRows, KeyedTable } from '../database/plain-select.js';
import { addTo } from '../common/multimap.js';
import type { Language } from '../config/config.js';
import type {
  ContributedField,
  EventWriteContributor,
  LifecycleListener,
  ListParameterContributor,
  ModuleCatalogue,
  PayloadContributor,
  RecordKindName,
  RestNamespaceName,
  StoredValues,
} from './contracts.js';
import { StoredValuesStore } from './stored-values.store.js';

/** A plain SQL identifier: what a stored contributor may name (no quoting games). */
const IDENTIFIER = /^[a-z_][a-z0-9_]{0,63}$/;

/** A payload contributor's reason to be refused at registration, or undefined. */
function payloadProblem(contributor: PayloadContributor<object>): string | undefined {
  const { stored } = contributor;
  if (!stored === !contributor.contribute) return 'needs either stored or contribute';
  if (!stored) return undefined;
  const names = [stored.table, stored.key, ...stored.columns];
  const bad = names.find((name) => !IDENTIFIER.test(name));
  if (bad !== undefined) return `names a table or column that is not an identifier: ${bad}`;
  if (!stored.columns.length) return 'stores no column';
  return undefined;
}

/** A contributed field as the presenters apply it (ExtensionRegistry.payloadFields). */
export interface PayloadFieldOf {
  name: string;
  protectedValue: unknown;
  /** Shown only to a reader who may edit the record and asks `context=edit`. */
  editors: boolean;
}

/** What one module registers (ExtensionRegistry.register). */
export interface ExtensionParts {
  /** The module's name: its catalogue's keys are `<name>.<key>`. */
  name: string;
  catalogue?: ModuleCatalogue;
  payload?: ReadonlyArray<PayloadContributor<object>>;
  listParameters?: ReadonlyArray<ListParameterContributor>;
  writes?: ReadonlyArray<EventWriteContributor<object>>;
  lifecycle?: ReadonlyArray<LifecycleListener>;
}

/**
 * What the application's modules registered, read by the core at its seams (the presenters, the
 * list's SQL, the write plan, the OpenAPI documents, the writes' commit). One per application:
 * modules register from their providers' constructors, before the documents are built.
 */
@Injectable()
export class ExtensionRegistry {
  private readonly payloadByKind = new Map<RecordKindName, Array<PayloadContributor<object>>>();
  readonly listParameters: Array<ListParameterContributor> = [];
  readonly writes: Array<EventWriteContributor<object>> = [];
  readonly lifecycle: LifecycleListener[] = [];
  private readonly texts = new Map<string, string>();
  /** payloadFields' answers, by kind and namespace (cleared by a registration). */
  private readonly fieldLists = new Map<string, ReadonlyArray<readonly PayloadFieldOf[]>>();
  readonly names: string[] = [];

  /** `store`: where stored payload values are read (absent in unit tests of other parts). */
  constructor(@Optional() private readonly store?: StoredValuesStore) {}

  register(parts: ExtensionParts): void {
    if (this.names.includes(parts.name))
      throw new Error(`extension ${parts.name} registered twice`);
    this.names.push(parts.name);
    this.fieldLists.clear();
    for (const contributor of parts.payload ?? []) {
      const problem = payloadProblem(contributor);
      if (problem)
        throw new Error(
          `extension ${parts.name}: a ${contributor.kind} payload contributor ${problem}`,
        );
      addTo(this.payloadByKind, contributor.kind, contributor);
    }
    this.listParameters.push(...(parts.listParameters ?? []));
    this.writes.push(...(parts.writes ?? []));
    this.lifecycle.push(...(parts.lifecycle ?? []));
    for (const [language, texts] of Object.entries(parts.catalogue ?? {})) {
      for (const [key, text] of Object.entries(texts)) {
        this.texts.set(`${language}:${parts.name}.${key}`, text);
      }
    }
  }

  payload(kind: RecordKindName): ReadonlyArray<PayloadContributor<object>> {
    return this.payloadByKind.get(kind) ?? [];
  }

  /**
   * Per payload contributor of `kind` (in `payload(kind)`'s order), the fields its payloads carry
   * in `namespace`, in payload order: worked out once, not for every page.
   */
  payloadFields(
    kind: RecordKindName,
    namespace: RestNamespaceName,
  ): ReadonlyArray<readonly PayloadFieldOf[]> {
    const key = `${kind}:${namespace}`;
    let lists = this.fieldLists.get(key);
    if (!lists) {
      lists = this.payload(kind).map((contributor) =>
        (Object.entries(contributor.fields) as Array<[string, ContributedField]>)
          .filter(([, field]) => !field.namespaces || field.namespaces.includes(namespace))
          .map(([name, field]) => ({
            name,
            protectedValue: field.protectedValue,
            editors: field.visibility === 'editors',
          })),
      );
      this.fieldLists.set(key, lists);
    }
    return lists;
  }

  /** The tables the payload contributors of `kind` keep their values in (`stored`), in order. */
  storedTables(kind: RecordKindName): ReadonlyArray<StoredValues<object>> {
    return this.payload(kind).flatMap((c) => (c.stored ? [c.stored] : []));
  }

  /** A stored table's rows of the records `ids` (one query), for a page read without them. */
  readStored(table: KeyedTable, ids: readonly number[]): Promise<KeyedRows> {
    if (!this.store) throw new Error('the registry has no store to read stored values from');
    return this.store.rowsOf(table, ids);
  }

  /** A text of a module's catalogue (`<module>.<key>`), or undefined for any other key. */
  text(language: Language, key: string): string | undefined {
    return this.texts.get(`${language}:${key}`);
  }
}
