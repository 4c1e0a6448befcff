import { actionImplementations } from './actions.js';
import { guardImplementations } from './guards.js';
import { defineMachineKind } from '../core/MachineKind.js';
import { PERSISTED_SESSION_VERSION, SNAPSHOT_MIGRATIONS, structuralIssues } from './PersistedSession.js';
import { summariseContext } from './RecordingEntry.js';
import { copyContext, DEFAULT_CONFIG, initialContext, SafetyContext, type SafetyConfig } from './SafetyContext.js';
import { SafetyEvent } from './SafetyEvent.js';

/** Input of the machine's actor: the session's settings. */
export interface SafetyMachineInput {
  config?: SafetyConfig;
}

/**
 * The session safety machine's kind: its context and events, the guards and actions its JSON
 * names, what a recording keeps of its context, and its snapshot versions.
 *
 * @example
 * safetyMachineKind.eventTypes.includes('BEGIN_CALL'); // true
 * Object.keys(safetyMachineKind.guards).includes('hasUnvalidatedTarget'); // true
 */
export const safetyMachineKind = defineMachineKind<SafetyContext, SafetyEvent, SafetyMachineInput>({
  name: 'safety',
  context: SafetyContext,
  events: SafetyEvent,
  guards: guardImplementations,
  actions: actionImplementations,
  initialContext: (input) => initialContext(input?.config ?? DEFAULT_CONFIG),
  recorded: summariseContext,
  copyContext,
  snapshot: { version: PERSISTED_SESSION_VERSION, migrations: SNAPSHOT_MIGRATIONS, check: structuralIssues },
});
