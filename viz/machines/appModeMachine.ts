import { setup } from 'xstate';

/** What the app is showing: recordings, live sessions, the playground, the machine editor, or insights. */
export type AppMode = 'recordings' | 'live' | 'playground' | 'edit' | 'insights';

export const APP_MODES: readonly AppMode[] = ['live', 'recordings', 'playground', 'edit', 'insights'];

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
  states: { recordings: {}, live: {}, playground: {}, edit: {}, insights: {} },
  on: {
    SHOW: [
      { guard: ({ event }) => event.mode === 'live', target: '.live' },
      { guard: ({ event }) => event.mode === 'playground', target: '.playground' },
      { guard: ({ event }) => event.mode === 'edit', target: '.edit' },
      { guard: ({ event }) => event.mode === 'insights', target: '.insights' },
      { target: '.recordings' },
    ],
  },
});
