import { HttpError } from 'react-admin';

/** The languages of the console, as the server's path prefixes name them. */
export const LANGUAGES = ['en', 'hu', 'ro'] as const;
export type Language = (typeof LANGUAGES)[number];

/** The page's language: the server writes it into `<html lang>` from the path prefix. */
export const pageLanguage = (): Language => {
  const lang = document.documentElement.lang;
  return (LANGUAGES as readonly string[]).includes(lang) ? (lang as Language) : 'en';
};

/** `/hu` when the console was opened at `/hu/admin/`, '' at `/admin/`. */
const prefix = (): string => {
  const match = /^(\/(?:en|hu|ro))\/admin\//.exec(window.location.pathname);
  return match ? match[1] : '';
};

/** The address of the console in `language` (the language switch), at the same screen. */
export const consoleAddress = (language: Language): string =>
  `${language === 'en' ? '' : `/${language}`}/admin/${window.location.hash}`;

/** The REST API: WordPress's root, which BASE_PATH does not move, in the console's language. */
const API = () => `${prefix()}/wp-json/cal/events/v1`;
const SESSION = () => `${prefix()}/admin/session`;

/** The nonce of the session: sent with every API request, without which the cookie counts for nothing. */
let nonce: string | undefined;
export const setNonce = (value: string | undefined) => {
  nonce = value;
};
export const hasNonce = () => nonce !== undefined;

export interface ApiAnswer<T> {
  body: T;
  headers: Headers;
}

async function send<T>(url: string, init: RequestInit = {}): Promise<ApiAnswer<T>> {
  const headers = new Headers(init.headers);
  headers.set('Accept', 'application/json');
  if (init.body !== undefined) headers.set('Content-Type', 'application/json');
  if (nonce) headers.set('X-WP-Nonce', nonce);
  const res = await fetch(url, { ...init, headers, credentials: 'same-origin' });
  const text = await res.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  if (!res.ok) {
    const message =
      body && typeof body === 'object' && 'message' in body
        ? String((body as { message: unknown }).message)
        : res.statusText;
    throw new HttpError(message, res.status, body);
  }
  return { body: body as T, headers: res.headers };
}

/** A call to the REST API (`path` after the namespace, e.g. `/events?page=2`). */
export const api = <T>(path: string, init?: RequestInit) => send<T>(`${API()}${path}`, init);

/**
 * A call to the REST API in another content language (its lists answer the records of the
 * language they are asked in; a create belongs to it): `/ro/wp-json/...`.
 */
export const apiIn = <T>(language: Language, path: string, init?: RequestInit) =>
  send<T>(`/${language}/wp-json/cal/events/v1${path}`, init);

/** A call to the console's session route (login, who am I, logout). */
export const session = <T>(init?: RequestInit) => send<T>(SESSION(), init);
