/** The longest content line in octets, without its line break (RFC 5545 §3.1). */
const LINE_OCTETS = 75;
const CRLF = Buffer.from('\r\n');
const FOLD = Buffer.from('\r\n ');

/** Folded content lines: the pieces of their UTF-8 bytes, to be sent (or joined) once. */
export interface Folded {
  pieces: Buffer[];
  length: number;
}

/**
 * The UTF-8 bytes of `text` (content lines, each ending with CRLF) with every line longer than
 * 75 octets folded into lines of at most 75 octets, each continuation starting with one space,
 * never inside a character (RFC 5545 §3.1). Linear in the text: it is encoded once, the line
 * ends are found by Buffer.indexOf, each cut is found at most three octets back from its 75th
 * (a UTF-8 character has at most three continuation octets), and the pieces are views of the
 * encoded text, not copies.
 */
export function foldLines(text: string): Folded {
  const bytes = Buffer.from(text, 'utf8');
  const pieces: Buffer[] = [];
  let length = bytes.length;
  let copied = 0;
  for (let start = 0; start < bytes.length;) {
    const found = bytes.indexOf(CRLF, start);
    const end = found < 0 ? bytes.length : found;
    let from = start;
    // The first line holds 75 octets; each continuation 74 after its space.
    let room = LINE_OCTETS;
    while (end - from > room) {
      let cut = from + room;
      // Back to the first octet of the character the cut would split (0b10xxxxxx continue one).
      while (cut > from && (bytes[cut] & 0xc0) === 0x80) cut--;
      pieces.push(bytes.subarray(copied, cut), FOLD);
      length += FOLD.length;
      copied = cut;
      from = cut;
      room = LINE_OCTETS - 1;
    }
    if (found < 0) break;
    start = found + CRLF.length;
  }
  pieces.push(bytes.subarray(copied));
  return { pieces, length };
}

/** A TEXT value (RFC 5545 §3.3.11): backslash, semicolon, comma and line breaks escaped. */
export function icsText(value: string): string {
  return value.replace(/[\\;,]/g, '\\$&').replace(/\r\n|\r|\n/g, '\\n');
}
