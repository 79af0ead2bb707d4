/**
 * Auto-paragraphs (BEHAVIOR §4.10) with WordPress's own `@wordpress/autop`, made linear.
 *
 * The package is a chain of regular expressions. Several of them cost time proportional to
 * (number of starting points) × (distance scanned), which is quadratic on inputs such as many
 * `<div` before the next `>`, many unclosed `<svg`, long runs of spaces, or many `<pre>` blocks
 * (their placeholders are restored one search from the start at a time). Before the package
 * runs, {@link prepare} rewrites exactly those shapes, one left-to-right pass each, so that every
 * scan a pattern makes is bounded or disjoint from the others:
 *
 * - `<pre>` blocks are set aside here (same rules as the package) and stand in as one block
 *   element each, so the package never sees `<pre`.
 * - Between two `>`, only the first and the last `<` may open a tag; the others become a
 *   stand-in character. `<!--` and `<![CDATA[` open their own section and do not count.
 * - A `<script`, `<style`, `<svg` or `<math` after the last matching closing tag scans to the
 *   end; only the first such one is left as a tag.
 * - Between two `>`/`]`, only the first `[audio`/`[video` stays a possible shortcode.
 * - Whitespace: outside tags, a run with two or more newlines keeps one paragraph break (the
 *   package would collapse it anyway); any run longer than {@link RUN} gets an invisible
 *   stand-in every {@link RUN} characters, so patterns that consume whitespace see short runs.
 *
 * Stand-ins are Unicode noncharacters, removed from the input first and turned back afterwards,
 * so well-formed content renders exactly as WordPress renders it. What can differ: markup that a
 * browser would not read as tags either, and whitespace inside runs of more than {@link RUN}
 * characters that the package would have dropped (it stays; the page looks the same).
 *
 * The package also lacks WordPress's rule that ends a paragraph after `<hr>`; it is added here.
 */
import { autop as wordpressAutop } from '@wordpress/autop';
import { phpTrim } from './sanitize.js';

/** A `<` that opens no tag. */
const TEXT_LT = '\uFDD0';
/** A `[` that opens no audio/video shortcode. */
const TEXT_BRACKET = '\uFDD1';
/** Splits long whitespace runs; removed afterwards. */
const SPLIT = '\uFDD2';
/** Marks where a `<pre>` block was set aside. */
const PRE_SLOT = '<ul \uFDD3></ul>';
const STAND_INS = /[\uFDD0-\uFDD3]/g;

/** Longest whitespace run a pattern may have to walk. */
const RUN = 32;

/** WordPress `wpautop()` with line breaks; the trailing newline it adds is dropped. */
export function autop(input: string): string {
  if (phpTrim(input) === '') return '';
  const pres: string[] = [];
  const text = prepare(setPresAside(input.replace(STAND_INS, ''), pres));
  let out = wordpressAutop(text, true);
  out = out.replaceAll(TEXT_LT, '<').replaceAll(TEXT_BRACKET, '[').replaceAll(SPLIT, '');
  if (pres.length > 0) out = putPresBack(out, pres);
  return out.replace(/\n$/, '');
}

/**
 * The package's own `<pre>` handling: the text is cut at each `</pre>`; a piece holding `<pre`
 * keeps what precedes it and sets the rest (with its `</pre>`) aside; a piece without `<pre`
 * loses its `</pre>`. The last piece stays as it is.
 */
function setPresAside(text: string, pres: string[]): string {
  if (!text.includes('<pre')) return text;
  const pieces = text.split('</pre>');
  const last = pieces.pop()!;
  let out = '';
  for (const piece of pieces) {
    const start = piece.indexOf('<pre');
    if (start === -1) {
      out += piece;
      continue;
    }
    pres.push(piece.slice(start) + '</pre>');
    out += piece.slice(0, start) + PRE_SLOT;
  }
  return out + last;
}

function putPresBack(text: string, pres: string[]): string {
  const pieces = text.split(PRE_SLOT);
  let out = pieces[0];
  for (let i = 1; i < pieces.length; i++) out += (pres[i - 1] ?? '') + pieces[i];
  return out;
}

const STAND_IN_LT = 1;
const STAND_IN_BRACKET = 2;
const IN_TAG = 4;

function prepare(input: string): string {
  let text = input.replace(/\r\n|\r/g, '\n');
  // WordPress ends a paragraph after <hr>, <hr/>, <hr />; the package forgets to.
  text = text.replace(/<hr[ \t\n\f\v]*\/?>/g, '$&\n\n');
  const marks = new Uint8Array(text.length);
  markTags(text, marks);
  keepFirstUnclosed(text, marks);
  keepFirstShortcode(text, marks);
  return shortenWhitespace(withStandIns(text, marks), marks);
}

function withStandIns(text: string, marks: Uint8Array): string {
  const parts: string[] = [];
  let from = 0;
  for (let i = 0; i < marks.length; i++) {
    const mark = marks[i] & (STAND_IN_LT | STAND_IN_BRACKET);
    if (mark === 0) continue;
    parts.push(text.slice(from, i), mark === STAND_IN_LT ? TEXT_LT : TEXT_BRACKET);
    from = i + 1;
  }
  if (parts.length === 0) return text;
  parts.push(text.slice(from));
  return parts.join('');
}

/**
 * Between two `>`, keeps the first and the last `<` (stand-ins for the others), and marks what
 * lies inside a tag, comment or CDATA section, where newlines must stay.
 */
function markTags(text: string, marks: Uint8Array) {
  let first = -1;
  let last = -1;
  let sectionEnd = -1;
  const close = (end: number) => {
    if (first !== -1) for (let i = first; i < end; i++) marks[i] |= IN_TAG;
    first = last = -1;
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 60 /* < */) {
      if (first === -1 && i >= sectionEnd && opensSection(text, i)) {
        const closer = text.startsWith('<!--', i) ? '-->' : ']]>';
        const end = text.indexOf(closer, i + 4);
        sectionEnd = end === -1 ? text.length : end + closer.length;
        for (let j = i; j < sectionEnd; j++) marks[j] |= IN_TAG;
        continue;
      }
      if (first === -1) first = i;
      else {
        if (last !== -1) marks[last] |= STAND_IN_LT;
        last = i;
      }
    } else if (ch === 62 /* > */) {
      close(i + 1);
    }
  }
  close(text.length);
}

const opensSection = (text: string, i: number) =>
  text.startsWith('<!--', i) || text.startsWith('<![CDATA[', i);

/** For each element the package looks for a closing tag of, one unclosed opening at most. */
function keepFirstUnclosed(text: string, marks: Uint8Array) {
  for (const name of ['script', 'style', 'svg', 'math']) {
    const opening = `<${name}`;
    let at = text.indexOf(opening, text.lastIndexOf(`</${name}>`) + 1);
    let kept = false;
    for (; at !== -1; at = text.indexOf(opening, at + 1)) {
      if (marks[at] & STAND_IN_LT) continue;
      if (kept) marks[at] |= STAND_IN_LT;
      kept = true;
    }
  }
}

/** Between two `>`/`]`, only the first `[audio` or `[video` may start a shortcode. */
function keepFirstShortcode(text: string, marks: Uint8Array) {
  if (!text.includes('[audio') && !text.includes('[video')) return;
  let seen = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '>' || ch === ']') seen = false;
    else if (ch === '[' && (text.startsWith('audio', i + 1) || text.startsWith('video', i + 1))) {
      if (seen) marks[i] |= STAND_IN_BRACKET;
      seen = true;
    }
  }
}

/** See the module comment: paragraph breaks collapsed outside tags, long runs split. */
function shortenWhitespace(text: string, marks: Uint8Array): string {
  return text.replace(/\s+/g, (run: string, at: number) => {
    let out = run;
    if (!(marks[at] & IN_TAG)) {
      const first = run.indexOf('\n');
      const last = run.lastIndexOf('\n');
      if (first !== last) out = run.slice(0, first) + '\n\n' + run.slice(last + 1);
    }
    if (out.length <= RUN) return out;
    let split = '';
    for (let i = 0; i < out.length; i += RUN) split += (i ? SPLIT : '') + out.slice(i, i + RUN);
    return split;
  });
}
