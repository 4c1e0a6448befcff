import { createLimiter } from 'assistant-safety';
import { describe, expect, it } from 'vitest';
import { flush } from './fakeTools.js';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('createLimiter', () => {
  it('should start tasks first in, first out, never more than the limit, an exclusive one alone', async () => {
    const limit = createLimiter(2);
    const gates = new Map<string, ReturnType<typeof deferred>>();
    const started: string[] = [];
    const task = (name: string, exclusive = false) =>
      limit.run(
        () => {
          started.push(name);
          const gate = deferred();
          gates.set(name, gate);
          return gate.promise.then(() => name);
        },
        { exclusive },
      );
    const all = Promise.all([task('a'), task('b'), task('c'), task('x', true), task('d')]);
    await flush();
    expect(started).toEqual(['a', 'b']);
    gates.get('a')!.resolve();
    await flush();
    expect(started).toEqual(['a', 'b', 'c']);
    gates.get('b')!.resolve();
    await flush();
    expect(started).toEqual(['a', 'b', 'c']); // x waits for c; d waits behind x
    gates.get('c')!.resolve();
    await flush();
    expect(started).toEqual(['a', 'b', 'c', 'x']);
    expect(limit.active).toBe(1);
    gates.get('x')!.resolve();
    await flush();
    expect(started).toEqual(['a', 'b', 'c', 'x', 'd']);
    gates.get('d')!.resolve();
    expect(await all).toEqual(['a', 'b', 'c', 'x', 'd']);
    expect(limit.active).toBe(0);
  });

  it('should free the slot of a task that throws or rejects, and pass the error on', async () => {
    const limit = createLimiter(1);
    const sync = limit.run(() => {
      throw new Error('sync');
    });
    const async = limit.run(() => Promise.reject(new Error('async')));
    const after = limit.run(() => Promise.resolve('after'));
    await expect(sync).rejects.toThrow('sync');
    await expect(async).rejects.toThrow('async');
    expect(await after).toBe('after');
  });

  it('should refuse a limit that is not a positive integer', () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) expect(() => createLimiter(bad)).toThrow(RangeError);
  });
});
