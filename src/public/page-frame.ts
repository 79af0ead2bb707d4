import { Inject, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { Rendered } from '../common/http/body-bytes.adapter.js';
import type { RequestContext } from '../common/http/request-context.js';
import { APP_CONFIG, LANGUAGES, type AppConfig, type Language } from '../config/config.js';
import { ogLocale } from './format.js';
import { Views, type PageHead } from './views.js';

export type PageResult =
  | { kind: 'html'; status: number; html: string; cacheControl?: string; lastModified?: string }
  | { kind: 'redirect'; location: string };

export const webcal = (url: string) => url.replace(/^https?:/, 'webcal:');

/**
 * What every public page shares: the site's addresses in each language (pages, forms, feeds)
 * and the frame a view is rendered in (head, alternates, Open Graph, language switch), so that
 * the event pages and the list pages build only their own content.
 */
@Injectable()
export class PageFrame {
  constructor(
    private readonly views: Views,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  // ------------------------------------------------------------------ addresses

  prefix(language: Language): string {
    return language === this.config.defaultLanguage ? '' : `/${language}`;
  }

  /** `{SITE_URL}{/lang}{path}`. */
  siteUrl(language: Language, path = '/'): string {
    return `${this.config.siteUrl}${this.prefix(language)}${path}`;
  }

  /** A record's `url` as a page of its language (`/hu/event/x/`). */
  localize(url: unknown, language: Language): string {
    const text = typeof url === 'string' ? url : '';
    if (!text.startsWith(`${this.config.siteUrl}/`)) return text;
    return this.siteUrl(language, text.slice(this.config.siteUrl.length));
  }

  private sitePath(): string {
    return new URL(this.config.siteUrl).pathname.replace(/\/$/, '');
  }

  /**
   * `{path of SITE_URL}{/lang}{path}`: where a form of a page posts to. A path, not an absolute
   * URL, so the form stays on the origin the reader sees (the CSP's `form-action 'self'`).
   */
  sitePathOf(language: Language, path: string): string {
    return `${this.sitePath()}${this.prefix(language)}${path}`;
  }

  /** PUBLIC_URL_TEMPLATE points the `url`s at another front end: the record pages are off. */
  get recordPagesOn(): boolean {
    return !this.config.publicUrlTemplate;
  }

  siteName(): string {
    return new URL(this.config.siteUrl).host;
  }

  siteRss(ctx: RequestContext) {
    return {
      title: this.views.t(ctx.language, 'rss_title', { site: this.siteName() }),
      href: this.siteUrl(ctx.language, '/feed/'),
    };
  }

  notFound(ctx: RequestContext): PageResult {
    return this.html(
      ctx,
      'not-found',
      {},
      { title: this.views.t(ctx.language, 'not_found_title'), status: 404 },
    );
  }

  // ------------------------------------------------------------------ rendering

  html(
    ctx: RequestContext,
    view: string,
    data: Record<string, unknown>,
    head: {
      title: string;
      status?: number;
      description?: string;
      canonical?: string;
      translations?: Partial<Record<Language, string>>;
      rss?: { title: string; href: string };
      calendars?: PageHead['calendars'];
      image?: string;
      ogType?: string;
      jsonLd?: string;
      cacheControl?: string;
      lastModified?: string;
    },
  ): PageResult {
    const t = this.views.texts(ctx.language);
    const translations = head.translations ?? {};
    const allEvents = `${ctx.restBase}/events.ics`;
    const og: Array<[string, string]> = [
      ['og:type', head.ogType ?? 'website'],
      ['og:site_name', t.site_name],
      ['og:title', head.title],
      ['og:locale', ogLocale(ctx.language)],
    ];
    if (head.canonical) og.push(['og:url', head.canonical]);
    if (head.description) og.push(['og:description', head.description]);
    if (head.image) og.push(['og:image', head.image]);
    for (const lang of LANGUAGES) {
      if (lang !== ctx.language && translations[lang])
        og.push(['og:locale:alternate', ogLocale(lang)]);
    }
    const page: PageHead = {
      lang: ctx.language,
      title: `${head.title} | ${t.site_name}`,
      description: head.description,
      canonical: head.canonical,
      home: this.siteUrl(ctx.language),
      stylesheet: `${this.sitePath()}/assets/cal.css`,
      alternates: [
        ...LANGUAGES.filter((lang) => translations[lang]).map((lang) => ({
          lang: lang as string,
          href: translations[lang]!,
        })),
        // The version for readers whose language has none: the default language's.
        ...(translations[this.config.defaultLanguage]
          ? [{ lang: 'x-default', href: translations[this.config.defaultLanguage]! }]
          : []),
      ],
      languages: LANGUAGES.map((lang) => ({
        lang,
        href: translations[lang] ?? this.siteUrl(lang),
        label: this.views.t(lang, 'language_name'),
        current: lang === ctx.language,
      })),
      rss: head.rss ?? this.siteRss(ctx),
      calendars: head.calendars ?? [
        { title: t.calendar_all, href: allEvents, webcal: webcal(allEvents) },
      ],
      apiRoot: `${this.config.siteUrl}/wp-json/`,
      og,
      jsonLd: head.jsonLd,
    };
    return {
      kind: 'html',
      status: head.status ?? 200,
      html: this.views.render(view, page, data),
      cacheControl: head.cacheControl,
      lastModified: head.lastModified,
    };
  }
}

/**
 * A page as the answer its handler returns (not sends): the response cache keeps the anonymous
 * 200s that no password opened.
 */
export function pageAnswer(res: Response, result: PageResult): Rendered {
  if (result.kind === 'redirect') {
    res.location(result.location);
    return new Rendered(302, Buffer.alloc(0));
  }
  if (result.cacheControl) res.setHeader('Cache-Control', result.cacheControl);
  if (result.lastModified && result.status === 200) {
    res.setHeader('Last-Modified', result.lastModified);
  }
  res.type('text/html; charset=utf-8');
  return new Rendered(result.status, Buffer.from(result.html));
}
