import { threadCpuMs } from '../cpu.js';
import { renderContentOnce } from './render.js';

/**
 * The display filters run on every uncached read of stored text, so they must take time linear
 * in its length for any input up to the 1 MB body limit. Each shape below is one on which a
 * straightforward texturize or autop takes quadratic time.
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
    const started = threadCpuMs();
    renderContentOnce(input);
    runs.push(threadCpuMs() - started);
    const [best, next] = [...runs].sort((a, b) => a - b);
    if (next !== undefined && next <= best * 1.1) break;
  }
  return Math.min(...runs);
}

const sized = (unit: string, size: number) =>
  unit.startsWith('1.') ? '1.'.repeat(size / 2) + 'x2' : unit.repeat(Math.ceil(size / unit.length));

/**
 * How CPU time grows when the input doubles, from 100 KB to 200 KB and from 200 KB to 400 KB:
 * linear code takes about twice as long, the quadratic renders this spec guards against four
 * times as long (and seconds at 80 KB). The smaller of the two doublings counts: inputs of
 * these sizes go to V8's large-object space, whose allocations cost more per byte from some
 * size on, which can make one doubling look worse than linear on one machine and not on another
 * (50 KB against 400 KB measured 26-34 times as long on a machine where each doubling from
 * 100 KB on took 1.9-2.8 times as long). A noisy growth is measured again (up to 3 times); no
 * absolute time is asserted.
 */
function growth(unit: string): number {
  let best = Infinity;
  for (let attempt = 0; attempt < 3 && best >= 2.5; attempt++) {
    const [t100, t200, t400] = [100_000, 200_000, 400_000].map((size) =>
      Math.max(time(sized(unit, size)), 0.5),
    );
    best = Math.min(best, t200 / t100, t400 / t200);
  }
  return best;
}

describe('render time is linear', () => {
  it.each(Object.entries(SHAPES))('%s', (_name, unit) => {
    expect(growth(unit)).toBeLessThan(3.2);
  });
});
