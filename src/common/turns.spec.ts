import { Turns } from './turns.js';

describe('Turns', () => {
  it('runs at most `max` at once, the others in the order they came, through failures', async () => {
    const turns = new Turns(2);
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const releases: Array<() => void> = [];
    const runs = [0, 1, 2, 3, 4].map((i) =>
      turns.run(async () => {
        running++;
        most = Math.max(most, running);
        order.push(i);
        await new Promise<void>((release) => releases.push(release));
        running--;
        if (i === 1) throw new Error('failed');
        return i;
      }),
    );
    // Their outcomes are taken at once: the failing run is not left unhandled meanwhile.
    const outcomes = Promise.allSettled(runs);
    // Let every run start or queue, then finish them one by one as they get their turn.
    for (let done = 0; done < 5; done++) {
      await new Promise((r) => setImmediate(r));
      releases.shift()!();
    }
    const settled = await outcomes;
    expect(most).toBe(2);
    expect(order).toEqual([0, 1, 2, 3, 4]);
    expect(settled.map((s) => s.status)).toEqual([
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
      'fulfilled',
    ]);
  });
});
