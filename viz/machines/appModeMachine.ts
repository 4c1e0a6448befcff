import { setup } from 'xstate';

/** What the app is showing: recordings, live sessions, the playground, or the machine editor. */
export type AppMode = 'recordings' | 'live' | 'playground' | 'edit';

export const APP_MODES: readonly AppMode[] = ['live', 'recordings', 'playground', 'edit'];

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
  states: { recordings: {}, live: {}, playground: {}, edit: {} },
  on: {
    SHOW: [
      { guard: ({ event }) => event.mode === 'live', target: '.live' },
      { guard: ({ event }) => event.mode === 'playground', target: '.playground' },
      { guard: ({ event }) => event.mode === 'edit', target: '.edit' },
      { target: '.recordings' },
    ],
  },
});
