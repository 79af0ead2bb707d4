import { Controller, Get, Injectable, Module } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import {
  Ctx,
  ExtensionRegistry,
  ExtensionsModule,
  forbidden,
  NAMESPACE,
  type ContributedRecord,
  type LifecycleChange,
  type OrganizerPayloadContributor,
  type RequestContext,
  type VenuePayloadContributor,
} from '../../src/extensions/index.js';

/**
 * A small extension module of the tests (test/modules/probe.e2e-spec.ts), built on the surface
 * alone like a real one: a field on venues, an editors-only field of its own namespace on
 * organizers, a lifecycle listener and two routes under the namespace. What it saw is kept in
 * PROBE for the test to read.
 */
export const PROBE = {
  /** Venue ids with a step-free entrance. */
  stepFree: new Set<number>(),
  /** Each `contribute` call: the kind and the number of records it was given. */
  calls: [] as Array<{ kind: string; records: number }>,
  /** Every lifecycle change heard, in order. */
  changes: [] as LifecycleChange[],
  /** The status an event's row had when its change was heard (read on another connection). */
  statuses: [] as Array<{ id: number; action: string; status: string | null }>,
};

interface VenueFields {
  step_free: boolean | null;
}
interface OrganizerFields {
  probe_note: string;
}

declare module '../../src/extensions/index.js' {
  interface VenueExtensionFields {
    step_free?: boolean | null;
  }
  interface OrganizerExtensionFields {
    probe_note?: string;
  }
}

const stepFree: VenuePayloadContributor<VenueFields> = {
  kind: 'venue',
  fields: {
    step_free: {
      protectedValue: null,
      schema: { type: 'boolean', nullable: true, description: 'probe.doc.step_free' },
    },
  },
  defaults: { step_free: false },
  contribute(records: readonly ContributedRecord[]) {
    PROBE.calls.push({ kind: 'venue', records: records.length });
    return Promise.resolve(
      new Map(records.map((r) => [r.id, { step_free: PROBE.stepFree.has(r.id) }])),
    );
  },
};

const note: OrganizerPayloadContributor<OrganizerFields> = {
  kind: 'organizer',
  fields: {
    probe_note: {
      protectedValue: '',
      visibility: 'editors',
      namespaces: ['ours'],
      schema: { type: 'string', description: 'probe.doc.probe_note' },
    },
  },
  defaults: { probe_note: '' },
  contribute(records: readonly ContributedRecord[]) {
    PROBE.calls.push({ kind: 'organizer', records: records.length });
    return Promise.resolve(new Map(records.map((r) => [r.id, { probe_note: `note ${r.id}` }])));
  },
};

/** Routes under the namespace: every address of it, the language guard, authentication. */
@Controller(`${NAMESPACE}/probe`)
class ProbeController {
  @Get('ping')
  @ApiOperation({ summary: 'probe.doc.ping' })
  ping(@Ctx() ctx: RequestContext) {
    return { language: ctx.language, namespace: ctx.restBase.replace(/^.*\/wp-json\//, '') };
  }

  @Get('me')
  @ApiOperation({ summary: 'probe.doc.me' })
  me(@Ctx() ctx: RequestContext) {
    if (!ctx.actor.user) throw forbidden(false);
    return { role: ctx.actor.user.role };
  }
}

@Injectable()
class ProbeRegistration {
  constructor(registry: ExtensionRegistry, @InjectDataSource() ds: DataSource) {
    const heard = async (changes: readonly LifecycleChange[]) => {
      for (const change of changes.filter((c) => c.kind === 'event')) {
        const rows: Array<{ status: string }> = await ds.query(
          'SELECT status FROM events WHERE id = ?',
          [change.id],
        );
        PROBE.statuses.push({ ...change, status: rows[0]?.status ?? null });
      }
      PROBE.changes.push(...changes);
    };
    registry.register({
      name: 'probe',
      catalogue: {
        en: {
          'doc.step_free': 'Whether the venue has a step-free entrance',
          'doc.probe_note': 'A note for editors',
          'doc.ping': 'Answers the language',
          'doc.me': 'Answers the caller’s role',
        },
        hu: {
          'doc.step_free': 'Van-e lépcsőmentes bejárat',
          'doc.probe_note': 'Megjegyzés szerkesztőknek',
          'doc.ping': 'Megadja a nyelvet',
          'doc.me': 'Megadja a hívó szerepkörét',
        },
        ro: {
          'doc.step_free': 'Dacă locul are o intrare fără trepte',
          'doc.probe_note': 'O notă pentru editori',
          'doc.ping': 'Răspunde cu limba',
          'doc.me': 'Răspunde cu rolul apelantului',
        },
      },
      payload: [stepFree, note],
      lifecycle: [{ onChanges: heard }],
    });
  }
}

@Module({
  imports: [ExtensionsModule],
  controllers: [ProbeController],
  providers: [ProbeRegistration],
})
export class ProbeModule {}
