/** The kinds of machine the app draws, checks and replays. */
export type AppMachineKind = 'safety' | 'patrol';

/**
 * The kind of a machine file of `machines/`: a Patrol run machine is named
 * `patrol.json` (or `patrol-….json`, `patrol_….json`); every other machine is
 * a safety machine.
 *
 * @example
 * machineKindOf('patrol.json'); // 'patrol'
 * machineKindOf('strict-safety.json'); // 'safety'
 */
export function machineKindOf(file: string): AppMachineKind {
  return /^patrol([-_.].*)?\.json$/.test(file) ? 'patrol' : 'safety';
}
