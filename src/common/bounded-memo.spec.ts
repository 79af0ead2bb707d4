import { BoundedMemo, keptWith } from './bounded-memo.js';

describe('BoundedMemo', () => {
  it('makes a value once per key, null included', () => {
    const memo = new BoundedMemo<string | null>(10);
    let made = 0;
    const make = (v: string | null) => () => (made++, v);
    expect(memo.get('a', make('A'))).toBe('A');
    expect(memo.get('a', make('other'))).toBe('A');
    expect(memo.get('n', make(null))).toBeNull();
    expect(memo.get('n', make('other'))).toBeNull();
    expect(made).toBe(2);
  });

  it('starts over once full, so it never holds more than its bound', () => {
    const memo = new BoundedMemo<number>(3);
    for (let i = 0; i < 3; i++) memo.get(`k${i}`, () => i);
    expect(memo.size).toBe(3);
    expect(memo.get('k3', () => 3)).toBe(3);
    expect(memo.size).toBe(1);
    let made = 0;
    expect(memo.get('k0', () => (made++, 10))).toBe(10);
    expect(made).toBe(1);
    for (let i = 0; i < 100; i++) memo.get(`x${i}`, () => i);
    expect(memo.size).toBeLessThanOrEqual(3);
  });

  it('keeps no undefined answer', () => {
    const memo = new BoundedMemo<number | undefined>(3);
    let made = 0;
    memo.get('u', () => (made++, undefined));
    memo.get('u', () => (made++, undefined));
    expect(made).toBe(2);
    expect(memo.size).toBe(0);
  });
});

describe('keptWith', () => {
  it('makes a value once per object, and again for another object', () => {
    let made = 0;
    const lengthOf = keptWith((o: { text: string }) => (made++, o.text.length));
    const a = { text: 'abc' };
    expect(lengthOf(a)).toBe(3);
    expect(lengthOf(a)).toBe(3);
    expect(lengthOf({ text: 'abc' })).toBe(3);
    expect(made).toBe(2);
  });
});
