import { expect } from 'vitest';

/**
 * The error `run` throws, checked to be a `type`: for tests that read the error's fields (its path,
 * its issues). Fails the test when `run` returns.
 */
export function refusal<E extends Error>(type: abstract new (...args: never[]) => E, run: () => unknown): E {
  try {
    run();
  } catch (e) {
    expect(e).toBeInstanceOf(type);
    return e as E;
  }
  throw new Error('the input was accepted');
}
