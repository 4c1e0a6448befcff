import { setup } from 'xstate';

/** What the app is showing: recordings, live sessions, or the playground. */
export type AppMode = 'recordings' | 'live' | 'playground';

export const APP_MODES: readonly AppMode[] = ['live', 'recordings', 'playground'];

/**
 * The app's modes as a statechart: any mode can be shown from any other.
 * Start in another mode than `recordings` with
 * `appModeMachine.resolveState({ value: mode, context: {} })`.
 */
export const appModeMachine = setup({
  types: { events: {} as { type: 'SHOW'; mode: AppMode } },
}).createMachine({
  id: 'appMode',
  initial: 'recordings',
  states: { recordings: {}, live: {}, playground: {} },
  on: {
    SHOW: [
      { guard: ({ event }) => event.mode === 'live', target: '.live' },
      { guard: ({ event }) => event.mode === 'playground', target: '.playground' },
      { target: '.recordings' },
    ],
  },
});
