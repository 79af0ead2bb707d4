import { renderContentOnce } from './render.js';

/**
 * The display filters run on every uncached read of stored text, so they must take time linear
 * in its length for any input up to the 1 MB body limit. Each shape below used to be quadratic
 * somewhere in texturize or autop.
 */
const SHAPES: Record<string, string> = {
  div: '<div',
  p: '<p',
  pre: '<pre>',
  preClosed: '<pre>x</pre>',
  comment: '<!--',
  paragraphs: '\n\n',
  lt: '<',
  amp: '&',
  quotes: `"'`,
  dashes: '--',
  caption: '[caption',
  spaces: ' ',
  spacedLines: ' \n',
  script: '<script',
  svg: '<svg>',
  option: '<option ',
  audio: '[audio<source',
  mixture: '<div "a\' -- <p>&\n\n<!--[caption <pre> x',
  tags: '<b>',
  words: "it's a 9' x 9\" room... ",
  // One run of digits and dots ending in a dimension (1.1.1…x2).
  dimensions: '1.',
};

/**
 * The best of up to five runs, in milliseconds of this process's CPU time: other processes on a
 * busy machine do not count, and the minimum drops the runs a garbage collection happened to hit.
 * It stops early once two runs agree within 10 % (a quiet run measured twice): most inputs
 * need two or three runs instead of five.
 */
function time(input: string): number {
  const runs: number[] = [];
  while (runs.length < 5) {
    const started = process.cpuUsage();
    renderContentOnce(input);
    const used = process.cpuUsage(started);
    runs.push((used.user + used.system) / 1000);
    const [best, next] = [...runs].sort((a, b) => a - b);
    if (next !== undefined && next <= best * 1.1) break;
  }
  return Math.min(...runs);
}

const sized = (unit: string, size: number) =>
  unit.startsWith('1.') ? '1.'.repeat(size / 2) + 'x2' : unit.repeat(Math.ceil(size / unit.length));

/** Time at 200 KB and 400 KB; measured again (up to 3 times) when a busy machine blurs it. */
function growth(unit: string): { at200k: number; at400k: number } {
  let result = { at200k: 0, at400k: Infinity };
  for (let attempt = 0; attempt < 3; attempt++) {
    const at200k = time(sized(unit, 200_000));
    const at400k = time(sized(unit, 400_000));
    if (at400k / at200k < result.at400k / result.at200k) result = { at200k, at400k };
    if (at400k < 2.5 * at200k) break;
  }
  return result;
}

describe('render time is linear', () => {
  it.each(Object.entries(SHAPES))('%s', (_name, unit) => {
    // Generous: 2-45 ms of CPU time here, for every shape.
    expect(time(sized(unit, 80_000))).toBeLessThan(100);
    const { at200k, at400k } = growth(unit);
    // Doubling the input may not much more than double the time (plus room for garbage collection and a busy machine).
    expect(at400k).toBeLessThan(2.5 * at200k + 20);
  });
});
