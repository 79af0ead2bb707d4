/**
 * What HTML survives the write-side filter (CONTRACT §6 "Content HTML", BEHAVIOR §7.6).
 *
 * Two lists, with the semantics WordPress gives its own: the post list (`$allowedposttags`) for
 * the descriptions and excerpts of users who lack `unfiltered_html`, and the much smaller inline
 * list (`$allowedtags`) for term descriptions and the titles of those same users. Anything not
 * named here is removed: unknown elements lose their tags but keep their text, unknown attributes
 * are dropped, and URL attributes keep only the schemes in {@link URL_SCHEMES}.
 */

/** Attributes every element of the post list may carry, besides `data-*` and `aria-*`. */
const GLOBAL_ATTRIBUTES = ['class', 'dir', 'hidden', 'id', 'lang', 'role', 'style', 'title'];

/** Presentational alignment, still accepted on the block elements that used to take it. */
const ALIGN = ['align'];
const CELL = ['abbr', 'align', 'axis', 'bgcolor', 'char', 'charoff', 'colspan', 'headers'];
const CELL_MORE = ['height', 'nowrap', 'rowspan', 'scope', 'valign', 'width'];
const COLUMN = ['align', 'char', 'charoff', 'span', 'valign', 'width'];
const ROW_GROUP = ['align', 'char', 'charoff', 'valign'];
const MEDIA = ['autoplay', 'controls', 'loop', 'muted', 'preload', 'src'];

/** Post content: element → the attributes it may keep on top of the global ones. */
const POST_ELEMENTS: Record<string, string[]> = {
  a: ['href', 'rel', 'rev', 'name', 'target', 'download', 'hreflang', 'referrerpolicy'],
  abbr: [],
  acronym: [],
  address: [],
  area: ['alt', 'coords', 'href', 'nohref', 'shape', 'target'],
  article: ALIGN,
  aside: ALIGN,
  audio: MEDIA,
  b: [],
  bdo: [],
  big: [],
  blockquote: ['cite'],
  br: [],
  button: ['disabled', 'name', 'type', 'value'],
  caption: ALIGN,
  cite: [],
  code: [],
  col: COLUMN,
  colgroup: COLUMN,
  dd: [],
  del: ['datetime'],
  details: ['align', 'open'],
  dfn: [],
  div: ALIGN,
  dl: [],
  dt: [],
  em: [],
  fieldset: [],
  figcaption: ALIGN,
  figure: ALIGN,
  font: ['color', 'face', 'size'],
  footer: ALIGN,
  h1: ALIGN,
  h2: ALIGN,
  h3: ALIGN,
  h4: ALIGN,
  h5: ALIGN,
  h6: ALIGN,
  header: ALIGN,
  hgroup: ALIGN,
  hr: ['align', 'noshade', 'size', 'width'],
  i: [],
  img: [
    'alt',
    'align',
    'border',
    'decoding',
    'height',
    'hspace',
    'loading',
    'longdesc',
    'vspace',
    'src',
    'usemap',
    'width',
  ],
  ins: ['datetime', 'cite'],
  kbd: [],
  label: ['for'],
  legend: ALIGN,
  li: ['align', 'value'],
  main: ALIGN,
  map: ['name'],
  mark: [],
  menu: ['type'],
  nav: ALIGN,
  ol: ['start', 'type', 'reversed'],
  p: ALIGN,
  pre: ['width'],
  q: ['cite'],
  rb: [],
  rp: [],
  rt: [],
  rtc: [],
  ruby: [],
  s: [],
  samp: [],
  section: ALIGN,
  small: [],
  span: ALIGN,
  strike: [],
  strong: [],
  sub: [],
  summary: ALIGN,
  sup: [],
  table: ['align', 'bgcolor', 'border', 'cellpadding', 'cellspacing', 'rules', 'summary', 'width'],
  tbody: ROW_GROUP,
  td: [...CELL, ...CELL_MORE],
  textarea: ['cols', 'rows', 'disabled', 'name', 'readonly'],
  tfoot: ROW_GROUP,
  th: [...CELL, ...CELL_MORE],
  thead: ROW_GROUP,
  tr: ['align', 'bgcolor', 'char', 'charoff', 'valign'],
  track: ['default', 'kind', 'label', 'src', 'srclang'],
  tt: [],
  u: [],
  ul: ['type'],
  var: [],
  video: [...MEDIA, 'height', 'playsinline', 'poster', 'width'],
};

/** Post content, ready for sanitize-html: every element also takes the global attributes. */
export const POST_ALLOWED_ATTRIBUTES: Record<string, string[]> = {
  ...Object.fromEntries(Object.entries(POST_ELEMENTS).map(([tag, attrs]) => [tag, [...attrs]])),
  '*': [...GLOBAL_ATTRIBUTES, 'data-*', 'aria-*', 'xml:lang'],
};
export const POST_ALLOWED_TAGS = Object.keys(POST_ELEMENTS);

/**
 * Term descriptions and (for authors and contributors) titles: a few inline elements, no
 * global attributes. The only links are `<a href title>`.
 */
export const INLINE_ALLOWED_ATTRIBUTES: Record<string, string[]> = {
  a: ['href', 'title'],
  abbr: ['title'],
  acronym: ['title'],
  b: [],
  blockquote: ['cite'],
  cite: [],
  code: [],
  del: ['datetime'],
  em: [],
  i: [],
  q: ['cite'],
  s: [],
  strike: [],
  strong: [],
};
export const INLINE_ALLOWED_TAGS = Object.keys(INLINE_ALLOWED_ATTRIBUTES);

/**
 * The URL schemes a link or source may use, as WordPress allows them by default. Everything
 * else (`javascript:`, `data:`, `vbscript:`, ...) makes the attribute go; relative URLs stay.
 */
export const URL_SCHEMES = [
  'http',
  'https',
  'ftp',
  'ftps',
  'mailto',
  'news',
  'irc',
  'irc6',
  'ircs',
  'gopher',
  'nntp',
  'feed',
  'telnet',
  'mms',
  'rtsp',
  'sms',
  'svn',
  'tel',
  'fax',
  'xmpp',
  'webcal',
  'urn',
];

/** Attributes whose value is a URL and is checked against {@link URL_SCHEMES}. */
export const URL_ATTRIBUTES = ['href', 'src', 'cite', 'longdesc', 'poster', 'usemap'];

/**
 * Inline styles: the layout and typography properties WordPress's CSS filter accepts. A value
 * may hold words, numbers, units, `#` colours, commas, slashes and quotes, or be one colour
 * function; anything with other parentheses (`url(...)`, `expression(...)`), backslashes,
 * semicolons or angle brackets is dropped with its property.
 */
const PLAIN_VALUE = /^[-\w\s#%.,/'"!+]*$/;
const COLOUR_FUNCTION = /^(?:rgb|rgba|hsl|hsla)\([\d\s.,%/]*\)$/i;
const STYLE_PROPERTIES = [
  'background-color',
  'border',
  'border-bottom',
  'border-collapse',
  'border-color',
  'border-left',
  'border-radius',
  'border-right',
  'border-spacing',
  'border-style',
  'border-top',
  'border-width',
  'clear',
  'color',
  'column-count',
  'column-gap',
  'direction',
  'display',
  'float',
  'font',
  'font-family',
  'font-size',
  'font-style',
  'font-variant',
  'font-weight',
  'height',
  'letter-spacing',
  'line-height',
  'list-style-type',
  'margin',
  'margin-bottom',
  'margin-left',
  'margin-right',
  'margin-top',
  'max-height',
  'max-width',
  'min-height',
  'min-width',
  'padding',
  'padding-bottom',
  'padding-left',
  'padding-right',
  'padding-top',
  'text-align',
  'text-decoration',
  'text-indent',
  'text-transform',
  'vertical-align',
  'white-space',
  'width',
  'word-spacing',
  'writing-mode',
];
export const ALLOWED_STYLES: Record<string, Record<string, RegExp[]>> = {
  '*': Object.fromEntries(STYLE_PROPERTIES.map((p) => [p, [PLAIN_VALUE, COLOUR_FUNCTION]])),
};
