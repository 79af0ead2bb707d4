import type { IcsSummary } from '../importer/ics-importer.js';
import type { ImportSummary } from '../importer/tec-importer.js';
import { said, type Reason } from '../importer/messages.js';
import type { Translate } from '../config/messages.js';

// An import's closing report as the operator reads it, apart from the commands that run it.

/** The labels of a summary's kinds (`event:`), padded alike in every language. */
function kindLabels(kinds: string[], t: Translate): Map<string, string> {
  const labels = kinds.map((k) => `${t(`cli.import.kinds.${k}`)}:`);
  const width = Math.max(10, ...labels.map((l) => l.length));
  return new Map(kinds.map((k, i) => [k, labels[i].padEnd(width + 1)]));
}

type Counts = { created: number; updated: number; unchanged: number; skipped: number };

const counted = (c: Counts, t: Translate) => t('cli.import.counts', { ...c });

/** A skipped record: its kind (when the source has several), id, title and the reason. */
function skippedLine(
  s: { kind?: string; sourceId: string | number; title: string; reason: Reason },
  t: Translate,
): string {
  const kind = s.kind ? `${t(`cli.import.kinds.${s.kind}`)} ` : '';
  const reason = said(s.reason, t);
  if (!s.title) return `  ${kind}${s.sourceId}: ${reason}`;
  return `  ${t('cli.import.skipped_item', { kind, id: s.sourceId, title: s.title, reason })}`;
}

export function icsSummaryLines(summary: IcsSummary, dryRun: boolean, t: Translate): string[] {
  const c = summary.counts;
  const labels = kindLabels(['event', ...Object.keys(summary.linked)], t);
  const lines = [
    t(dryRun ? 'cli.import.dry_run' : 'cli.import.imported', { source: summary.source }),
    `  ${labels.get('event')}${counted(c, t)}`,
  ];
  // What the events' LOCATION, ORGANIZER and CATEGORIES brought along (written with an event).
  for (const [kind, l] of Object.entries(summary.linked)) {
    lines.push(`  ${labels.get(kind)}${t('cli.import.counts_linked', { ...l })}`);
  }
  lines.push(t('cli.import.total_ics', { counts: counted(c, t) }));
  if (summary.merged) lines.push(t('cli.import.merged_occurrences', { count: summary.merged }));
  if (summary.skipped.length) {
    lines.push(t('cli.import.skipped'));
    for (const s of summary.skipped) lines.push(skippedLine(s, t));
  }
  return lines;
}

/** The end of an import: counts per kind, totals, and each skipped record with its reason. */
export function summaryLines(summary: ImportSummary, dryRun: boolean, t: Translate): string[] {
  const lines = [
    t(dryRun ? 'cli.import.dry_run' : 'cli.import.imported', { source: summary.source }),
  ];
  const labels = kindLabels(Object.keys(summary.counts), t);
  const total = { created: 0, updated: 0, unchanged: 0, skipped: 0, notModified: 0 };
  const since = (n: number) => (n ? t('cli.import.not_modified', { count: n }) : '');
  for (const [kind, c] of Object.entries(summary.counts)) {
    for (const k of Object.keys(total) as Array<keyof typeof total>) total[k] += c[k];
    lines.push(`  ${labels.get(kind)}${counted(c, t)}${since(c.notModified)}`);
  }
  lines.push(
    t('cli.import.total_tec', {
      counts: `${counted(total, t)}${since(total.notModified)}`,
      requests: summary.requests,
      retries: summary.retries,
    }),
  );
  if (summary.merged) lines.push(t('cli.import.merged_occurrences', { count: summary.merged }));
  if (summary.skipped.length) {
    lines.push(t('cli.import.skipped'));
    for (const s of summary.skipped) lines.push(skippedLine(s, t));
  }
  if (summary.notes.length) {
    lines.push(t('cli.import.notes'));
    for (const n of summary.notes) lines.push(skippedLine({ ...n, reason: n.note }, t));
  }
  return lines;
}
