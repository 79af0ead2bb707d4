import { buildRss, type RssOptions } from '../../src/public/rss.js';
import { embeddedCategory, tecEvent } from '../helpers/tec-event.js';
import { readXml } from '../helpers/xml.js';

const OPTIONS: RssOptions = {
  title: 'Events of <cal.test> & co',
  link: 'https://cal.test/',
  self: 'https://cal.test/feed/',
  description: 'Upcoming "events"',
  language: 'en',
  allDayLabel: 'all day',
  localize: (url) => String(url),
};

const event = tecEvent;

/** The elements an HTML reader would make of a text (a lenient reading: any `<` + letter). */
const htmlTags = (html: string) => html.match(/<\/?[a-z][^>]*>?/gi) ?? [];

describe('buildRss', () => {
  it('never turns stored text into markup: titles, excerpts and terms reach readers as text', () => {
    const hostile = [
      '&lt;img src=x onerror=alert(1)&gt;',
      '&amp;lt;script&amp;gt;alert(2)&amp;lt;/script&amp;gt;',
      ']]> <b>closed</b> ]]>',
      '&#60;svg onload=alert(3)&#62;',
    ];
    const events = hostile.map((text, i) =>
      event(i + 1, {
        title: `${text} title`,
        excerpt: `<p>${text} excerpt</p>`,
        categories: [embeddedCategory(i + 1, text)],
      }),
    );
    const { bytes, count } = buildRss(events, OPTIONS);
    expect(count).toBe(hostile.length);
    const xml = readXml(bytes.toString('utf8'));
    const titles = xml.title.slice(1);
    expect(titles).toHaveLength(hostile.length);
    for (const html of [...titles, ...xml.category, xml.title[0], ...xml.description]) {
      // Readers take these as HTML: only the paragraphs of a description are elements.
      expect(htmlTags(html).filter((tag) => !/^<\/?p>$/.test(tag))).toEqual([]);
    }
    // The text a reader shows is the text the API shows.
    expect(titles[0]).toBe('&lt;img src=x onerror=alert(1)&gt; title');
    expect(xml.description[1]).toContain('<p>&lt;img src=x onerror=alert(1)&gt; excerpt</p>');
    expect(xml.title[0]).toBe('Events of &lt;cal.test&gt; &amp; co');
  });

  it('is well-formed XML whatever control characters the records hold', () => {
    const hostile = 'Bad\u0000\u0001\u0008\u000B\u000C\u001B\uFFFE\uFFFF title';
    const { bytes } = buildRss(
      [event(1, { title: hostile, excerpt: hostile, categories: [embeddedCategory(1, hostile)] })],
      { ...OPTIONS, title: hostile, description: hostile },
    );
    const xml = readXml(bytes.toString('utf8'));
    expect(xml.title).toEqual(['Bad title', 'Bad title']);
    expect(xml.category).toEqual(['Bad title']);
  });

  it('stops before the item that would take it beyond its bytes', () => {
    const long = `<p>${'word &amp; '.repeat(900)}</p>`;
    const events = Array.from({ length: 50 }, (_, i) => event(i + 1, { excerpt: long }));
    const { bytes, count } = buildRss(events, { ...OPTIONS, maxBytes: 100_000 });
    expect(count).toBeGreaterThan(0);
    expect(count).toBeLessThan(50);
    expect(bytes.length).toBeLessThanOrEqual(100_000);
    expect(readXml(bytes.toString('utf8')).item).toHaveLength(count);
  });
});
