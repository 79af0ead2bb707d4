import { SaxesParser } from 'saxes';

/**
 * Every element's text content, by element name, as a strict XML parser reads them; throws on a
 * document that is not well-formed.
 */
export function readXml(xml: string): Record<string, string[]> {
  const parser = new SaxesParser();
  const out: Record<string, string[]> = {};
  const open: Array<{ name: string; text: string }> = [];
  parser.on('opentag', (tag) => open.push({ name: tag.name, text: '' }));
  parser.on('text', (text) => {
    if (open.length) open[open.length - 1].text += text;
  });
  parser.on('cdata', (text) => {
    if (open.length) open[open.length - 1].text += text;
  });
  parser.on('closetag', () => {
    const tag = open.pop()!;
    (out[tag.name] ??= []).push(tag.text);
  });
  parser.write(xml).close();
  return out;
}
