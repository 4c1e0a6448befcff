import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { playbackMachine } from '../../viz/machines/playbackMachine.js';

const start = () => createActor(playbackMachine).start();

describe('playback', () => {
  afterEach(() => vi.useRealTimers());

  it('should step, seek and stay within the track', () => {
    const a = start();
    a.send({ type: 'LOAD', length: 5, at: 'start' });
    expect(a.getSnapshot().context.cursor).toBe(0);
    a.send({ type: 'STEP_BACK' });
    expect(a.getSnapshot().context.cursor).toBe(0);
    a.send({ type: 'STEP_FORWARD' });
    a.send({ type: 'STEP_FORWARD' });
    expect(a.getSnapshot().context.cursor).toBe(2);
    a.send({ type: 'SEEK', index: 99 });
    expect(a.getSnapshot().context.cursor).toBe(4);
    a.send({ type: 'FIRST' });
    expect(a.getSnapshot().context.cursor).toBe(0);
  });

  it('should follow the newest entry of a growing track until the user steps back', () => {
    const a = start();
    a.send({ type: 'LOAD', length: 3, at: 'end' });
    a.send({ type: 'GROW', length: 6 });
    expect(a.getSnapshot().context.cursor).toBe(5);
    a.send({ type: 'STEP_BACK' });
    a.send({ type: 'GROW', length: 9 });
    expect(a.getSnapshot().context.cursor).toBe(4);
    a.send({ type: 'LAST' });
    a.send({ type: 'GROW', length: 10 });
    expect(a.getSnapshot().context.cursor).toBe(9);
  });

  it('should play at the chosen speed and pause at the end', () => {
    vi.useFakeTimers();
    const a = start();
    a.send({ type: 'LOAD', length: 4, at: 'start' });
    a.send({ type: 'SET_SPEED', speed: 4 });
    a.send({ type: 'PLAY' });
    expect(a.getSnapshot().value).toBe('playing');
    vi.advanceTimersByTime(250);
    expect(a.getSnapshot().context.cursor).toBe(1);
    vi.advanceTimersByTime(500);
    expect(a.getSnapshot().context.cursor).toBe(3);
    vi.advanceTimersByTime(250);
    expect(a.getSnapshot().value).toBe('paused');
  });
});
