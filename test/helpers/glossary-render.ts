import { rendering, type Glossary } from './glossary.js';

/** docs/i18n/GLOSSARY.md, generated from the JSON so that the two never disagree. */
export function renderGlossary(glossary: Glossary, languages: string[]): string {
  const names: Record<string, string> = { hu: 'Hungarian', ro: 'Romanian' };
  const cell = (s: string) => s.replace(/\|/g, '\\|');
  const code = (list: string[] | undefined) =>
    list?.length ? list.map((p) => `\`${p}\``).join(', ') : '—';
  const lines = [
    '# Translation glossary',
    '',
    '<!-- Generated from glossary.json by test/i18n-glossary.spec.ts',
    '     (UPDATE_GLOSSARY=1 npx vitest run test/i18n-glossary.spec.ts); do not edit by hand. -->',
    '',
    'One rendering per recurring term in the Hungarian and Romanian catalogues (`i18n/hu`, `i18n/ro`).',
    '`npm test` fails when a catalogue uses a banned variant, when a translation drops a parameter',
    'name that the English text names (`post_parent`, `{id}`, `cal/events/v1`, "post"), and when an',
    'English text names a term (column *English*) whose translation uses none of the expected forms.',
    ...Object.entries(glossary.address).map(
      ([language, a]) =>
        `${names[language] ?? language} addresses the reader in the ${a.form} form: *${a.example}* (never ${a.banned
          .slice(0, 6)
          .map((p) => `*${p}*`)
          .join(', ')}…).`,
    ),
    'Quotes are „…” in both languages; Romanian writes ș and ț with the comma below; Hungarian',
    'writes compounds as one word, and a name before a noun with a hyphen (*iCalendar-hírcsatorna*).',
    'Operation summaries are actions: *Szervezők listázása*, *Listează organizatorii*.',
    '',
    '## How patterns match',
    '',
    glossary.about,
    '',
  ];
  for (const language of languages) {
    lines.push(`## ${names[language] ?? language} (${language})`, '');
    lines.push('| Term | English | Preferred | Expected forms | Banned variants | Note |');
    lines.push('| --- | --- | --- | --- | --- | --- |');
    for (const [term, entry] of Object.entries(glossary.terms)) {
      const r = rendering(entry, language);
      if (!r) continue;
      const except = entry.except?.length
        ? ` Not expected in ${entry.except.map((k) => `\`${k}\``).join(', ')}: ${entry.why ?? ''}`
        : '';
      lines.push(
        `| ${cell(term)} | ${code(entry.en)} | ${cell(r.preferred.join('; '))} | ${code(r.expect)} | ${code(r.banned)} | ${cell(`${r.note ?? ''}${except}`.trim())} |`,
      );
    }
    lines.push('');
  }
  return lines.join('\n');
}
