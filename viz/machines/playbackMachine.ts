import { assign, setup } from 'xstate';

/*
 * Playback of a track: a cursor over its entries, paused or playing at a
 * speed. When the cursor sits on the last entry it follows the tail, so a
 * live session keeps showing its newest event until the user steps back.
 */

export interface PlaybackContext {
  /** Index of the entry shown; -1 when the track is empty. */
  cursor: number;
  length: number;
  /** Entries per second while playing. */
  speed: number;
  /** Move to the newest entry when the track grows. */
  follow: boolean;
}

export type PlaybackEvent =
  | { type: 'LOAD'; length: number; at: 'start' | 'end' }
  | { type: 'GROW'; length: number }
  | { type: 'STEP_FORWARD' }
  | { type: 'STEP_BACK' }
  | { type: 'SEEK'; index: number }
  | { type: 'FIRST' }
  | { type: 'LAST' }
  | { type: 'PLAY' }
  | { type: 'PAUSE' }
  | { type: 'TOGGLE' }
  | { type: 'SET_SPEED'; speed: number };

export const SPEEDS = [1, 4, 16, 64, 256, 1024] as const;

/** Ticks no faster than this; higher speeds step several entries a tick. */
const MIN_TICK_MS = 50;

const clamp = (i: number, length: number) => Math.max(length === 0 ? -1 : 0, Math.min(length - 1, i));
const at = (cursor: number, length: number) => ({ cursor: clamp(cursor, length), follow: cursor >= length - 1 });

export const playbackMachine = setup({
  types: { context: {} as PlaybackContext, events: {} as PlaybackEvent },
  delays: { tick: ({ context }) => Math.max(MIN_TICK_MS, 1000 / context.speed) },
  guards: { atEnd: ({ context }) => context.cursor >= context.length - 1 },
  actions: {
    advance: assign(({ context }) => {
      const stride = Math.max(1, Math.round((context.speed * Math.max(MIN_TICK_MS, 1000 / context.speed)) / 1000));
      return at(context.cursor + stride, context.length);
    }),
  },
}).createMachine({
  id: 'playback',
  context: { cursor: -1, length: 0, speed: 4, follow: true },
  initial: 'paused',
  on: {
    LOAD: {
      target: '.paused',
      actions: assign(({ event }) => ({
        length: event.length,
        ...at(event.at === 'start' ? 0 : event.length - 1, event.length),
      })),
    },
    GROW: {
      actions: assign(({ context, event }) => ({
        length: event.length,
        cursor: context.follow ? clamp(event.length - 1, event.length) : clamp(context.cursor, event.length),
      })),
    },
    STEP_FORWARD: { actions: assign(({ context }) => at(context.cursor + 1, context.length)) },
    STEP_BACK: { actions: assign(({ context }) => at(context.cursor - 1, context.length)) },
    SEEK: { actions: assign(({ context, event }) => at(event.index, context.length)) },
    FIRST: { actions: assign(({ context }) => at(0, context.length)) },
    LAST: { actions: assign(({ context }) => at(context.length - 1, context.length)) },
    SET_SPEED: { actions: assign(({ event }) => ({ speed: event.speed })) },
  },
  states: {
    paused: {
      on: {
        PLAY: { target: 'playing', guard: ({ context }) => context.cursor < context.length - 1 },
        TOGGLE: { target: 'playing', guard: ({ context }) => context.cursor < context.length - 1 },
      },
    },
    playing: {
      after: {
        tick: [
          { guard: 'atEnd', target: 'paused' },
          { actions: 'advance', target: 'playing', reenter: true },
        ],
      },
      on: { PAUSE: 'paused', TOGGLE: 'paused' },
    },
  },
});
