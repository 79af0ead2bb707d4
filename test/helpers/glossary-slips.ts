import { compile, prose, type Glossary } from './glossary.js';

/**
 * The style checks of test/i18n-glossary.spec.ts, beyond terminology: address, operation
 * summaries, quotes, diacritics and Hungarian compounds.
 */

/** A text that breaks a rule of style rather than of terminology. */
interface Slip {
  key: string;
  rule: string;
  text: string;
}

/** The text without its `code`, the only thing that may keep straight quotes or any spelling. */
const withoutCode = (text: string) => text.replace(/`[^`\n]*`/g, ' ');

/** Formal address in a catalogue that addresses the reader informally (glossary "address"). */
export function addressSlips(glossary: Glossary, language: string, texts: Map<string, string>) {
  const rules = (glossary.address[language]?.banned ?? []).map((p) => [p, compile(p)] as const);
  const found: Slip[] = [];
  for (const [key, text] of texts) {
    const plain = prose(text);
    const before = found.length;
    for (const [pattern, regex] of rules) {
      if (regex.test(plain)) found.push({ key, rule: `address: ${pattern}`, text });
    }
    if (found.length > before) continue;
    // Romanian's polite imperative opening a sentence: Introduceți, Încercați, Verificați. (Inside
    // a sentence the same ending is mostly a participle: organizatorii mutați la gunoi.)
    if (language === 'ro') {
      const polite = /(?:^|[.!?]\s+)(\p{Lu}\p{Ll}+(?:ați|eți|iți|âți))(?![\p{L}-])/u.exec(plain);
      if (polite) found.push({ key, rule: `address: ${polite[1]}`, text });
    }
  }
  return found;
}

/**
 * The summary of an operation of the API (`*.op.*`, `*.doc.<operation>.summary`) or of a command
 * (`cli.*.summary`): an action, as the English is. Romanian starts with a verb in the present
 * (Listează, Creează, Mută, Șterge), not a noun (Lista, Crearea, Evenimente); Hungarian names
 * the action with a verbal noun (Események listázása) or, in the command help, a verb
 * (kilistázza, töröl), never a bare noun (Új esemény).
 */
const OPERATION_SUMMARY = /\.op\.\w+$|\.doc\.\w+\.summary$|^cli\.\w+\.summary$/;

export function summarySlips(language: string, texts: Map<string, string>) {
  const found: Slip[] = [];
  for (const [key, text] of texts) {
    if (!OPERATION_SUMMARY.test(key)) continue;
    const words = withoutCode(text).match(/[\p{L}-]+/gu) ?? [];
    const first = words[0]?.toLowerCase() ?? '';
    let action: boolean;
    if (language === 'ro') {
      action =
        /(?:ează|ește|ă|e)$/u.test(first) &&
        !/(?:are|ere|ire|âre|ente|uri|ări|ții|ile|ele|le)$/u.test(first);
    } else if (language === 'hu') {
      const clause = withoutCode(text).split(/[,(:;]/)[0];
      const verbalNoun = /\p{L}{3,}(?:ás|és)(?:a|e|uk|ük)(?!\p{L})/iu.test(clause);
      // A verb of the command help: importálja, kilistázza, törli, létrehoz, töröl, ad (ki).
      const verb =
        key.startsWith('cli.') &&
        (clause.match(/\p{L}+/gu) ?? []).some((w) =>
          /^(?:\p{L}*(?:[bcdfghjklmnprstvz]j[ae]|zz[ae]|ss[ae]|[lrznt]i|ál|ol|oz|ez|öz|ít|öl|ől)|ad)$/u.test(
            w,
          ),
        );
      action = verbalNoun || verb;
    } else continue;
    if (!action) found.push({ key, rule: 'summary: not an action', text });
  }
  return found;
}

/** Straight or English quotes where Hungarian and Romanian both quote „so”. */
export function quoteSlips(texts: Map<string, string>) {
  const found: Slip[] = [];
  for (const [key, text] of texts) {
    const plain = withoutCode(text);
    const opening = [...plain.matchAll(/„/g)].length;
    const closing = [...plain.matchAll(/”/g)].length;
    if (/["“]/.test(plain) || opening !== closing) {
      found.push({ key, rule: 'quotes: „…”', text });
    }
  }
  return found;
}

/**
 * Romanian words misspelt without their diacritics: și, să, în, dacă, după, fără, încă, când,
 * până; -ează verbs (actualizeaza); -ție, -țiune nouns (locatie, optiune); fișier, câmp, găsit.
 */
const WITHOUT_DIACRITICS =
  /(?<![\p{L}-])(?!martie(?![\p{L}-]))(?:si|sa|in|intr|daca|dupa|fara|intre|inca|cand|catre|pana|asa|niste|isi|iti|fisier\p{L}*|campul|campuri\p{L}*|gasit\p{L}*|\p{L}+eaza|\p{L}+(?:tie|tia|tii|tiei|tiile|tiilor|tiune|tiuni|tiunea))(?![\p{L}-])/iu;

/**
 * Romanian spelling: ș and ț with the comma below (not the cedilla of ş, ţ), and diacritics at all:
 * a word misspelt without them, or a long text (30 words or more) without one ă, â, î, ș or ț.
 */
export function diacriticSlips(texts: Map<string, string>) {
  const found: Slip[] = [];
  for (const [key, text] of texts) {
    const plain = prose(text);
    if (/[şţŞŢ]/.test(plain)) found.push({ key, rule: 'ș/ț with the comma below', text });
    const bare = WITHOUT_DIACRITICS.exec(plain);
    if (bare) found.push({ key, rule: `diacritics: ${bare[0]}`, text });
    const words = plain.match(/\p{L}[\p{L}-]*/gu) ?? [];
    if (words.length >= 30 && !/[ăâîșțĂÂÎȘȚ]/.test(plain)) {
      found.push({ key, rule: 'diacritics: none in the whole text', text });
    }
  }
  return found;
}

/** Names before a Hungarian noun, which they join with a hyphen: iCalendar-hírcsatorna, JSON-tömb. */
const NAME_APART =
  /(?<![\p{L}-])(?:iCalendar|RSS|REST|JSON|HTML|HTTP|URL|OpenAPI|WordPress|IANA|Unix|CSV|ICS|Swagger)\s+(?:fájl|hírcsatorn|cím|tömb|törzs|dokumentum|formátum|objektum|azonosító|bejegyzés|kérés|válasz|felület|index|gyökér|útvonal|végpont|időbélyeg|időzón|paraméter|mező|fejléc|oldal|hivatkozás|lekérdezés|kifejezés|szöveg)\p{L}*/u;

/**
 * Whether a Hungarian noun is possessed (kategóriái, címkéi, azonosítója, dokumentációját), by its
 * ending: -ja/-je or -(j)ai/-(j)ei/-ái/-éi, then at most one case ending.
 */
const POSSESSED =
  /(?:j[aeáé]|j?[aáeé]i)(?:t|nak|nek|ban|ben|ba|be|ból|ből|ra|re|ról|ről|hoz|hez|höz|val|vel|n|ként|tól|től|ig|ért)?$/u;

/**
 * Hungarian compounds written apart: a name and a noun without their hyphen, or two words that
 * the catalogues write as one (eseménykategória, alkalmazásjelszó) written as two. `words` are
 * every word of the catalogues; a compound is a word of them made of two others (each at least
 * four letters). Its members apart are a slip unless the second is possessed, which makes them
 * two words of a possessive phrase: az esemény kategóriái (the event's categories) is right.
 */
export function compoundSlips(texts: Map<string, string>, words: Set<string>) {
  const compounds = new Map<string, { head: string; tail: string; regex: RegExp }>();
  // Built from the catalogue's own words, each a literal: no pattern comes from outside.
  for (const word of words) {
    for (let i = 4; i <= word.length - 4; i++) {
      const head = word.slice(0, i).replace(/-$/, '');
      const tail = word.slice(i).replace(/^-/, '');
      if (tail.length < 4 || !words.has(head) || !words.has(tail)) continue;
      const stem = tail.replace(/[aeáé]$/, '');
      compounds.set(`${head} ${tail}`, {
        head,
        tail,
        regex: new RegExp(`(?<![\\p{L}-])${head}\\s+(${stem}[\\p{L}]*)`, 'giu'),
      });
    }
  }
  const found: Slip[] = [];
  for (const [key, text] of texts) {
    const plain = prose(text);
    const name = NAME_APART.exec(plain);
    if (name) found.push({ key, rule: `compound: ${name[0]}`, text });
    const lower = plain.toLowerCase();
    for (const { head, tail, regex } of compounds.values()) {
      if (!lower.includes(head)) continue;
      for (const match of plain.matchAll(regex)) {
        if (POSSESSED.test(match[1].toLowerCase())) continue;
        found.push({ key, rule: `compound: ${head}${tail} (${match[0]})`, text });
      }
    }
  }
  return found;
}

/** Every word of some texts, in lower case: the vocabulary compoundSlips knows compounds from. */
export function vocabulary(...catalogues: Map<string, string>[]): Set<string> {
  const out = new Set<string>();
  for (const texts of catalogues)
    for (const text of texts.values())
      for (const w of prose(text).match(/\p{L}[\p{L}-]*/gu) ?? []) out.add(w.toLowerCase());
  return out;
}
