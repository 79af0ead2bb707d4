import { threadCpuMs } from '../cpu.js';
import { Parser } from 'htmlparser2';
import { INLINE_ALLOWED_TAGS, POST_ALLOWED_TAGS, URL_ATTRIBUTES } from './allowlists.js';
import { basicInlineHtml, contentFilter, filterPostHtml } from './html-filter.js';
import { renderContent } from './render.js';

/**
 * Known XSS vectors: script elements, event handlers, `javascript:`/`data:`/`vbscript:` URLs in
 * their encoded and split forms, and mutation-XSS shapes that rely on a parser disagreeing with
 * the filter (noscript, svg/math foreign content, comments, CDATA, raw-text elements).
 */
const VECTORS: string[] = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=//evil.example/x.js></SCRIPT>',
  '<script>alert(1)',
  '<scr<script>ipt>alert(1)</scr</script>ipt>',
  '<img src=x onerror=alert(1)>',
  '<img src="x" onerror="alert(1)">',
  '<IMG SRC=x OnErRoR=alert(1)>',
  '<img src=x onerror\t=alert(1)>',
  '<img/src=x/onerror=alert(1)>',
  '<img src="javascript:alert(1)">',
  '<img src=`javascript:alert(1)`>',
  '<img """><script>alert(1)</script>">',
  '<body onload=alert(1)>',
  '<div onmouseover="alert(1)">x</div>',
  '<p style="x" onclick=alert(1)>x</p>',
  '<a href="javascript:alert(1)">x</a>',
  '<a href="JaVaScRiPt:alert(1)">x</a>',
  '<a href=" javascript:alert(1)">x</a>',
  '<a href="\u0001javascript:alert(1)">x</a>',
  '<a href="jav&#x09;ascript:alert(1)">x</a>',
  '<a href="jav\tascript:alert(1)">x</a>',
  '<a href="jav&#x0A;ascript:alert(1)">x</a>',
  '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">x</a>',
  '<a href="&#x6A;&#x61;&#x76;&#x61;&#x73;&#x63;&#x72;&#x69;&#x70;&#x74;&#x3A;alert(1)">x</a>',
  '<a href="&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058alert(1)">x</a>',
  '<a href="javascript&colon;alert(1)">x</a>',
  '<a href="javascript&#58;alert(1)">x</a>',
  '<a href="vbscript:msgbox(1)">x</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>',
  '<a href="DATA:text/html,<script>alert(1)</script>">x</a>',
  '<img src="data:image/svg+xml,<svg onload=alert(1)>">',
  '<a href="javascript://%0Aalert(1)">x</a>',
  '<a href="  &#14;  javascript:alert(1)">x</a>',
  '<blockquote cite="javascript:alert(1)">q</blockquote>',
  '<video poster="javascript:alert(1)" src="x.mp4"></video>',
  '<iframe src="javascript:alert(1)"></iframe>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '<object data="javascript:alert(1)"></object>',
  '<embed src="javascript:alert(1)">',
  '<form action="javascript:alert(1)"><button>x</button></form>',
  '<button formaction="javascript:alert(1)">x</button>',
  '<input autofocus onfocus=alert(1)>',
  '<details open ontoggle=alert(1)>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>',
  '<svg><style><img src=x onerror=alert(1)></style></svg>',
  '<svg onload=alert(1)>',
  '<svg><a xlink:href="javascript:alert(1)"><text>x</text></a></svg>',
  '<svg><script>alert(1)</script></svg>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math>',
  '<math><maction actiontype="statusline" xlink:href="javascript:alert(1)">x</maction></math>',
  '<math href="javascript:alert(1)">x</math>',
  '<form><math><mtext></form><form><mglyph><style></math><img src onerror=alert(1)>',
  '<!--<img src=x onerror=alert(1)>-->',
  '<!-- --!><img src=x onerror=alert(1)> -->',
  '<![CDATA[<img src=x onerror=alert(1)>]]>',
  '<textarea></textarea><img src=x onerror=alert(1)>',
  '<title><img src=x onerror=alert(1)></title>',
  '<xmp><img src=x onerror=alert(1)></xmp>',
  '<noembed><img src=x onerror=alert(1)></noembed>',
  '<template><img src=x onerror=alert(1)></template>',
  '<style>@import "javascript:alert(1)";</style>',
  '<div style="background:url(javascript:alert(1))">x</div>',
  '<div style="width: expression(alert(1))">x</div>',
  '<span style="color: red; behavior: url(x.htc)">x</span>',
  '<base href="javascript:alert(1)//">',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<link rel="import" href="data:text/html,<script>alert(1)</script>">',
  '<a href="#" onclick="alert(1)" data-x="1" aria-label="y">x</a>',
  '"><script>alert(1)</script>',
  '<<script>alert(1)//<</script>',
  '<a title="x" <img src=x onerror=alert(1)>>y</a>',
  '<p title="&quot;><img src=x onerror=alert(1)>">x</p>',
  '<img src=x:alert(1) onerror=eval(src)>',
  '<isindex type=image src=1 onerror=alert(1)>',
  '<marquee onstart=alert(1)>x</marquee>',
  '<a href="http://ok.example" target="_blank" onfocus="alert(1)">x</a>',
];

const DANGEROUS_SCHEME = /^(?:javascript|vbscript|data|livescript|mocha):/;
const DANGEROUS_TEXT =
  /<\s*\/?\s*(?:script|iframe|svg|math|object|embed|style|base|meta|link|form)/i;

/** Everything that makes `html` unsafe once a browser parses it; [] when it is safe. */
function problems(html: string, allowedTags: string[]): string[] {
  const found: string[] = [];
  if (DANGEROUS_TEXT.test(html)) found.push('dangerous element in the markup');
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (!allowedTags.includes(name)) found.push(`element <${name}>`);
        for (const [attribute, value] of Object.entries(attributes)) {
          if (attribute.startsWith('on')) found.push(`handler ${attribute}`);
          const plain = [...value]
            .filter((ch) => ch > ' ')
            .join('')
            .toLowerCase();
          if (URL_ATTRIBUTES.includes(attribute) && DANGEROUS_SCHEME.test(plain)) {
            found.push(`${attribute}=${value}`);
          }
          if (attribute === 'style' && /url\(|expression|behavior|javascript/i.test(value)) {
            found.push(`style=${value}`);
          }
        }
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  return found;
}

describe('filterPostHtml (WordPress post allowlist)', () => {
  it('has at least 50 known vectors to check', () => {
    expect(VECTORS.length).toBeGreaterThanOrEqual(50);
  });

  it.each(VECTORS)('neutralises %j', (vector) => {
    const out = filterPostHtml(vector);
    expect(problems(out, POST_ALLOWED_TAGS)).toEqual([]);
    // Stable under a second pass: the stored HTML parses back to itself (no mutation).
    expect(filterPostHtml(out)).toBe(out);
    // And stays safe through the display filters applied when it is read.
    expect(problems(renderContent(out), [...POST_ALLOWED_TAGS, 'br'])).toEqual([]);
  });

  it('the checker itself sees the raw vectors as unsafe', () => {
    const unsafe = VECTORS.filter((v) => problems(v, POST_ALLOWED_TAGS).length > 0);
    expect(unsafe.length).toBeGreaterThanOrEqual(45);
  });

  it.each([
    ['<p>Plain <strong>bold</strong> and <em>em</em>.</p>', undefined],
    ['<a href="https://example.com/?a=1&amp;b=2" target="_blank" rel="noopener">x</a>', undefined],
    ['<a href="mailto:info@example.com">mail</a> <a href="tel:+3612345">call</a>', undefined],
    ['<a href="/relative/path">rel</a> <a href="#top">top</a>', undefined],
    ['<img src="https://example.com/a.png" alt="A" width="10" height="20" />', undefined],
    ['<div class="box" id="b1" data-id="7" aria-label="Box" role="note">x</div>', undefined],
    ['<ul><li>one</li><li>two</li></ul><ol start="3"><li>three</li></ol>', undefined],
    ['<table><tbody><tr><td colspan="2">c</td></tr></tbody></table>', undefined],
    ['<h2 style="color:red;text-align:center">Title</h2>', undefined],
    ['<p style="color:rgb(10, 20, 30)">c</p>', undefined],
    ['<blockquote cite="https://example.com">q</blockquote>', undefined],
    [
      '<video controls src="https://example.com/v.mp4" poster="https://example.com/p.png"></video>',
      undefined,
    ],
    ['Tom &amp; Jerry', undefined],
    ['Tom & Jerry', 'Tom &amp; Jerry'],
    ['5 < 6 and 7 > 3', '5 &lt; 6 and 7 &gt; 3'],
    ['<p onclick="x()">t</p>', '<p>t</p>'],
    ['<script>alert(1)</script>after', 'alert(1)after'],
    ['<iframe src="https://example.com"></iframe>text', 'text'],
    ['<a href="javascript:alert(1)">x</a>', '<a>x</a>'],
    ['<p style="background:url(x.png);color:red">t</p>', '<p style="color:red">t</p>'],
    ['x<!-- note -->y', 'xy'],
  ])('keeps what WordPress allows: %j', (input, expected) => {
    expect(filterPostHtml(input)).toBe(expected ?? input);
  });

  it('is linear on large adversarial input', () => {
    const big = '<div<a href="'.repeat(20_000) + '<p>'.repeat(20_000);
    // CPU time, not the wall clock: a loaded machine stretches the second (a quadratic filter
    // took minutes on this input, a linear one takes tens of milliseconds).
    const started = threadCpuMs();
    filterPostHtml(big);
    expect(threadCpuMs() - started).toBeLessThan(2_000);
  });
});

describe('basicInlineHtml (term allowlist)', () => {
  it.each(VECTORS)('neutralises %j', (vector) => {
    const out = basicInlineHtml(vector);
    expect(problems(out, INLINE_ALLOWED_TAGS)).toEqual([]);
    expect(basicInlineHtml(out)).toBe(out);
  });

  it('drops what only the post allowlist has', () => {
    expect(basicInlineHtml('<p class="x">para</p><img src="https://e.x/a.png"><b>b</b>')).toBe(
      'para<b>b</b>',
    );
  });
});

describe('contentFilter', () => {
  it('leaves editors alone and filters others, markup-free text as sent', () => {
    const evil = '<b onclick="x()">A & B</b>';
    expect(contentFilter(true).content(evil)).toBe(evil);
    expect(contentFilter(true).title(evil)).toBe(evil);
    expect(contentFilter(false).content(evil)).toBe('<b>A &amp; B</b>');
    expect(contentFilter(false).title('<p>A</p> & B')).toBe('A &amp; B');
    expect(contentFilter(false).title('Jane & Co')).toBe('Jane & Co');
  });
});
