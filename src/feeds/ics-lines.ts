/** The longest content line in octets, without its line break (RFC 5545 §3.1). */
const LINE_OCTETS = 75;
const CR = 0x0d;
const LF = 0x0a;
const SPACE = 0x20;
const CR_LF = Buffer.from('\r\n');

/**
 * The UTF-8 bytes of `text` (content lines, each ending with CRLF) with every line longer than
 * 75 octets folded into lines of at most 75 octets, each continuation starting with one space,
 * never inside a character (RFC 5545 §3.1). Linear in the text: it is encoded once, each line
 * end is found by Buffer.indexOf, each cut at most three octets back from its 75th (a UTF-8
 * character has at most three continuation octets), and the lines are copied once into one
 * buffer (a calendar of 4 MiB folds into some 60,000 lines; a Buffer view per line cost more
 * than the copy).
 */
export function foldLines(text: string): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  // Each fold adds three octets (CR LF SPACE) and comes after at least 72 octets of text.
  const out = Buffer.allocUnsafe(bytes.length + 3 * Math.ceil(bytes.length / 72));
  let written = 0;
  for (let start = 0; start < bytes.length;) {
    const found = bytes.indexOf(CR_LF, start);
    const end = found < 0 ? bytes.length : found;
    let from = start;
    // The first line holds 75 octets; each continuation 74 after its space.
    let room = LINE_OCTETS;
    while (end - from > room) {
      let cut = from + room;
      // Back to the first octet of the character the cut would split (0b10xxxxxx continue one).
      while (cut > from && (bytes[cut] & 0xc0) === 0x80) cut--;
      written += bytes.copy(out, written, from, cut);
      out[written++] = CR;
      out[written++] = LF;
      out[written++] = SPACE;
      from = cut;
      room = LINE_OCTETS - 1;
    }
    const next = found < 0 ? bytes.length : found + CR_LF.length;
    written += bytes.copy(out, written, from, next);
    start = next;
  }
  return out.subarray(0, written);
}

/**
 * A TEXT value (RFC 5545 §3.3.11): backslash, semicolon, comma and line breaks escaped. Line
 * feeds are replaced as plain strings (a pattern with alternatives cost as much as the rest of
 * the escaping); only a text that holds a carriage return needs the pattern.
 */
export function icsText(value: string): string {
  let escaped = value.replace(/[\\;,]/g, '\\$&');
  if (escaped.includes('\r')) escaped = escaped.replace(/\r\n?/g, '\n');
  return escaped.replaceAll('\n', '\\n');
}
