import type { Language } from '../config/config.js';
import { invalidParams } from '../common/errors/api-error.js';
import { isUniqueViolation } from '../database/unique-violation.js';
import { languageTakenReason } from './translations.js';

/**
 * The move of a record to another language (CONTRACT §5), one flow for events, venues,
 * organizers, categories and tags:
 *
 * 1. validation: TranslationStore.languageChangeProblem, a 400 on `language` when the record's
 *    group has a member there already (of those the caller may read);
 * 2. permission (posts): TranslationStore.assertMayMoveLanguage, a 403 unless the caller may edit
 *    every member of the group;
 * 3. the write: moveLanguage takes the record to the language and sets its slug aside; the save
 *    runs through savedInLanguage, which answers a concurrent write that gave the group a member
 *    in that language first with the same 400; then the slug is assigned again in the new
 *    language: the old one when it is free there, else the next free `slug-2`, ...
 */
export interface LanguageMove {
  /** The record changes language. */
  moving: boolean;
  /** The slug it had, to assign again in its new language after the save. */
  movedSlug: string | undefined;
}

/** Takes `record` to `language` when one is asked and it is not the record's own (step 3). */
export function moveLanguage(
  record: { language: Language; slug: string | null },
  language: Language | undefined,
): LanguageMove {
  const moving = language !== undefined && language !== record.language;
  const movedSlug = moving ? (record.slug ?? undefined) : undefined;
  if (moving) {
    record.language = language;
    record.slug = null;
  }
  return { moving, movedSlug };
}

/**
 * Runs the save of a record that is `moving` to `language`: a unique violation is then a
 * concurrent write that gave the group a member in that language first, the 400 on `language`
 * the validation would have given.
 */
export async function savedInLanguage<T>(
  moving: boolean,
  language: Language,
  save: () => Promise<T>,
): Promise<T> {
  try {
    return await save();
  } catch (error) {
    if (moving && isUniqueViolation(error)) {
      throw invalidParams({ language: languageTakenReason(language) });
    }
    throw error;
  }
}
