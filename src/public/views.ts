import { Injectable } from '@nestjs/common';
import { Eta } from 'eta';
import { I18nService } from 'nestjs-i18n';
import type { Language } from '../config/config.js';
import { VIEWS_DIR } from '../config/paths.js';

/** The localized texts of the pages (`i18n/<lang>/pages.json`). */
export type Texts = Record<string, string>;

/** What the layout needs on every page. */
export interface PageHead {
  lang: Language;
  title: string;
  description?: string;
  canonical?: string;
  home: string;
  stylesheet: string;
  alternates: Array<{ lang: string; href: string }>;
  languages: Array<{ lang: Language; href: string; label: string; current: boolean }>;
  rss: { title: string; href: string };
  calendars: Array<{ title: string; href: string; webcal: string }>;
  apiRoot?: string;
  og: Array<[string, string]>;
  /** Serialized JSON-LD (scriptJson), already safe inside a script element. */
  jsonLd?: string;
}

/**
 * Eta templates of views/, escaping every `<%= %>` by default (autoEscape); only values built
 * here as HTML (a filtered description, the layout's body, JSON-LD) go through `<%~ %>`.
 */
@Injectable()
export class Views {
  private readonly eta = new Eta({ views: VIEWS_DIR, autoEscape: true, cache: true });

  constructor(private readonly i18n: I18nService) {}

  /** The catalogue without arguments, translated once per language (every page reads it). */
  private readonly plain = new Map<Language, Readonly<Texts>>();

  texts(language: Language, args?: Record<string, unknown>): Texts {
    if (!args) {
      let found = this.plain.get(language);
      if (!found) {
        found = Object.freeze(this.texts(language, {}));
        this.plain.set(language, found);
      }
      return found;
    }
    const found = this.i18n.t('pages', { lang: language, args }) as unknown;
    return found && typeof found === 'object' ? (found as Texts) : {};
  }

  t(language: Language, key: string, args: Record<string, unknown> = {}): string {
    return this.i18n.t(`pages.${key}`, { lang: language, args });
  }

  render(view: string, page: PageHead, data: Record<string, unknown>): string {
    return this.eta.render(`./${view}`, { ...data, page, t: this.texts(page.lang) });
  }
}
