import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from './paths.js';
import { VARIABLES } from './schema.js';

/** Named in CONTRACT §1 but read by the OpenTelemetry SDK itself (tracing.ts), not checked here. */
const READ_BY_THE_SDK = ['OTEL_SERVICE_NAME'];

const NAME = /`([A-Z][A-Z0-9_]+)[`=]/g;

interface Row {
  text: string;
  /** The variables of the first column, each with its entry of the default column. */
  defaults: Map<string, string>;
}

/** The rows of CONTRACT §1's table of environment variables. */
function contractRows(): Row[] {
  const contract = readFileSync(join(PROJECT_ROOT, 'docs/spec/CONTRACT.md'), 'utf8');
  const section = contract.slice(contract.indexOf('## 1. '), contract.indexOf('## 2. '));
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((text) => {
      const [, names, shown] = text.split('|').map((cell) => cell.trim());
      // `A` / `B` and `A`, `B` pair with their defaults; `A` (or `B`) share A's; one default
      // for several variables is each one's.
      const entries = shown.split(/, | \/ /).map((entry) => entry.replaceAll('`', ''));
      const defaults = new Map<string, string>();
      let position = -1;
      for (const part of names.split(/(\(or [^)]*\))/)) {
        const alternative = part.startsWith('(or ');
        for (const [, name] of part.matchAll(NAME)) {
          if (!alternative) position++;
          defaults.set(name, entries.length === 1 ? entries[0] : (entries[position] ?? '?'));
        }
      }
      return { text, defaults };
    });
}

describe('the schema and CONTRACT §1', () => {
  const rows = contractRows();
  const declared = new Map(VARIABLES.map((v) => [v.name, v]));

  it('finds the table', () => {
    expect(rows.length).toBeGreaterThan(20);
  });

  it('documents every variable the schema declares', () => {
    const undocumented = VARIABLES.filter(
      (v) =>
        !rows.some(
          (row) => row.text.includes(`\`${v.name}\``) || row.text.includes(`\`${v.name}=`),
        ),
    ).map((v) => v.name);
    expect(undocumented).toEqual([]);
  });

  it('declares every variable the table lists', () => {
    const listed = rows.flatMap((row) => [...row.defaults.keys()]);
    expect(listed.filter((name) => !declared.has(name) && !READ_BY_THE_SDK.includes(name))).toEqual(
      [],
    );
  });

  it('shows the defaults the schema reads', () => {
    const wrong = rows.flatMap((row) =>
      [...row.defaults]
        .filter(([name]) => declared.has(name))
        .map(([name, shown]) => {
          const value = declared.get(name)!.shownDefault;
          const matches =
            shown === 'none'
              ? value === undefined || value === ''
              : shown === 'empty'
                ? value === ''
                : shown === value;
          return matches ? null : `${name}: CONTRACT says ${shown}, the schema ${String(value)}`;
        })
        .filter((problem) => problem !== null),
    );
    expect(wrong).toEqual([]);
  });

  it('declares each variable once', () => {
    expect(declared.size).toBe(VARIABLES.length);
  });
});
