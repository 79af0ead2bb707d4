/** A bound on the rules kept, whatever the callers pass (they pass the few languages served). */
const MAX_RULES = 32;

const pluralRules = new Map<string, Intl.PluralRules>();

/**
 * A language's plural rules (cardinal, or ordinal: 1st, 2nd), kept for the process: creating
 * them takes about 20 µs, choosing a form one.
 */
export function pluralRulesOf(
  locale: string,
  type: Intl.PluralRuleType = 'cardinal',
): Intl.PluralRules {
  const key = `${type} ${locale}`;
  let found = pluralRules.get(key);
  if (!found) {
    found = new Intl.PluralRules(locale, { type });
    if (pluralRules.size < MAX_RULES) pluralRules.set(key, found);
  }
  return found;
}
