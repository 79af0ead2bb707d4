/**
 * Event cost (BEHAVIOR §4.3), after the plugin's `Tribe__Cost_Utils` (`parse_currency_symbol`,
 * `parse_currency_position`, `parse_cost_range`), `Tribe__Events__Cost_Utils::
 * get_formatted_event_cost()` and `Post_Repository::get_cost_values()`.
 */
import { escapeHtml, phpTrim, stripTags } from '../text/sanitize.js';
import { sanitizeTitle } from '../text/slug.js';

export type CurrencyPosition = '' | 'prefix' | 'postfix';

/** What is stored on write: the raw entries and the derived currency symbol and position. */
export interface ParsedCost {
  entries: string[];
  symbol: string;
  position: CurrencyPosition;
}

/** `cost_details`; key order as the plugin sends it. */
export interface CostDetails {
  currency_symbol: string;
  currency_code: '';
  currency_position: CurrencyPosition;
  values: string[];
}

export interface FormattedCost {
  cost: string;
  cost_details: CostDetails;
}

/** A run of digits with `.`/`,` separators: `10`, `23.55`, `1.250,50`. */
const NUMBER = /\d+(?:[.,]\d+)*/g;

/**
 * A range dash between two amounts (`$10 - $20`), not part of a currency symbol. The spaces
 * around it are trimmed off the parts: a pattern `\s*-\s*` retried every run of spaces from each
 * of its positions (quadratic on a cost of many spaces, found by the ReDoS audit).
 */
const RANGE_DASH = /[-\u2013\u2014]/;

/**
 * Parses the `cost` request field: a string, a number or a list of strings/numbers (`null` or
 * absent = no cost). Returns `null` for any other type (the caller answers 400). Each entry is
 * stripped of HTML and trimmed; empty entries are dropped.
 */
export function parseCostInput(input: unknown): ParsedCost | null {
  if (input === undefined || input === null) return { entries: [], symbol: '', position: '' };
  const entries: string[] = [];
  for (const item of Array.isArray(input) ? input : [input]) {
    let entry: string;
    if (typeof item === 'string') entry = item;
    else if (typeof item === 'number' && Number.isFinite(item)) entry = String(item);
    else return null;
    entry = phpTrim(stripTags(entry));
    if (entry !== '') entries.push(entry);
  }
  const symbol = currencySymbol(entries);
  return { entries, symbol, position: symbol ? currencyPosition(entries, symbol) : '' };
}

/**
 * `parse_currency_symbol()`: each entry holding a number, with its numbers removed and trimmed
 * (`20$` → `$`, `€ 10` → `€`); a range keeps one symbol (`$10 - $20` → `$`, `10 - 20` → none).
 * All such entries must agree, otherwise there is no symbol.
 */
function currencySymbol(entries: string[]): string {
  const symbols = new Set<string>();
  for (const entry of entries) {
    if (!/\d/.test(entry)) continue;
    const rest = phpTrim(entry.replace(NUMBER, ''));
    const parts = rest
      .split(RANGE_DASH)
      .map((p) => p.trim())
      .filter((p) => p !== '');
    symbols.add(parts.length === 0 ? '' : parts.every((p) => p === parts[0]) ? parts[0] : rest);
  }
  return symbols.size === 1 ? [...symbols][0] : '';
}

/** `parse_currency_position()`: `prefix` when the symbol starts every priced entry. */
function currencyPosition(entries: string[], symbol: string): CurrencyPosition {
  const positions = new Set(
    entries
      .filter((entry) => /\d/.test(entry))
      .map((entry) => (phpTrim(entry).startsWith(symbol) ? 'prefix' : 'postfix')),
  );
  return positions.size === 1 ? [...positions][0] : '';
}

interface Amount {
  /** As entered (`1.250,50`). */
  text: string;
  value: number;
}

/**
 * `1.250,50` → `1250.50`: with both separators the last one is the decimal separator; a single
 * kind of separator is decimal when it occurs once and a thousands separator when repeated.
 */
function normalizeAmount(text: string): string {
  const separators = text.replace(/\d/g, '');
  if (separators === '') return text;
  const decimal = separators.at(-1)!;
  const single = !separators.includes(decimal === '.' ? ',' : '.');
  if (single && separators.length > 1) return text.replace(/[.,]/g, '');
  const at = text.lastIndexOf(decimal);
  return text.slice(0, at).replace(/[.,]/g, '') + '.' + text.slice(at + 1);
}

/**
 * Builds `cost` and `cost_details` from the stored entries. Amounts equal to 0 read `freeLabel`;
 * others get the stored symbol (default `$`) before (`prefix`, the default) or after them.
 * A single non-numeric entry is shown as entered; several with no amount are joined by `, `
 * (the plugin shows "Free" there, a defect not copied).
 */
export function formatCost(
  entries: string[],
  symbol: string,
  position: CurrencyPosition,
  freeLabel: string,
): FormattedCost {
  // get_cost_values(): the amounts (unique by value) and the slugs of the texts, in entry order,
  // then sorted numerically with a text counting as 0 (PHP's SORT_NUMERIC).
  const amounts: Amount[] = [];
  const words: string[] = [];
  const values: { key: number; value: string }[] = [];
  const seen = new Set<string>();
  const addValue = (id: string, key: number, value: string) => {
    if (seen.has(id)) return;
    seen.add(id);
    values.push({ key, value });
  };
  for (const entry of entries) {
    const numbers = entry.match(NUMBER);
    if (!numbers) {
      words.push(entry);
      const slug = sanitizeTitle(entry);
      addValue(`w:${slug}`, 0, slug);
      continue;
    }
    for (const text of numbers) {
      const normalized = normalizeAmount(text);
      const amount = { text, value: Number(normalized) };
      amounts.push(amount);
      addValue(`n:${amount.value}`, amount.value, normalized);
    }
  }
  values.sort((x, y) => x.key - y.key);

  let cost = '';
  if (amounts.length > 0) {
    const min = amounts.reduce((m, a) => (a.value < m.value ? a : m));
    const max = amounts.reduce((m, a) => (a.value > m.value ? a : m));
    const show = (a: Amount) => {
      if (a.value === 0) return escapeHtml(freeLabel);
      const sym = symbol || '$';
      return escapeHtml(position === 'postfix' ? a.text + sym : sym + a.text);
    };
    cost = min.value === max.value ? show(min) : `${show(min)} \u2013 ${show(max)}`;
  } else if (words.length > 0) {
    cost = escapeHtml(words.join(', '));
  }

  return {
    cost,
    cost_details: {
      currency_symbol: symbol,
      currency_code: '',
      currency_position: position,
      values: values.map((v) => v.value),
    },
  };
}
