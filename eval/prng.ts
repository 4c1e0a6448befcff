/**
 * A small seeded PRNG (mulberry32) for the evaluation corpus: the same seed gives the same runs,
 * byte for byte, on every machine. No Math.random anywhere in eval/.
 *
 * @example
 * const rng = createRng(7);
 * rng.pick(['a', 'b']); rng.int(0, 9); rng.chance(0.5);
 */
export interface Rng {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max], both included. */
  int(min: number, max: number): number;
  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T;
  /** True with probability p. */
  chance(p: number): boolean;
  /** A string of n characters from the alphabet. */
  word(n: number, alphabet?: string): string;
}

export function createRng(seed: number): Rng {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => {
    if (items.length === 0) throw new Error('pick: empty list');
    return items[int(0, items.length - 1)] as T;
  };
  const word = (n: number, alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789') => {
    let s = '';
    for (let i = 0; i < n; i++) s += alphabet[int(0, alphabet.length - 1)];
    return s;
  };
  return { next, int, pick, chance: (p) => next() < p, word };
}
