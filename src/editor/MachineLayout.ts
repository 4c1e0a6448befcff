import { z } from 'zod';

/** Where a state's node sits in the diagram (top-left corner, diagram units). */
export const NodePosition = z.strictObject({ x: z.number().finite(), y: z.number().finite() });
export type NodePosition = z.infer<typeof NodePosition>;

/**
 * A machine's layout: the sidecar `machines/<name>.layout.json`. Layout is
 * data beside the machine, never comments in it; states without a position
 * are placed by the automatic layout.
 */
export const MachineLayout = z.strictObject({
  version: z.literal(1),
  nodes: z.record(z.string(), NodePosition),
});
export type MachineLayout = z.infer<typeof MachineLayout>;

/**
 * A layout with no saved positions: every state is placed automatically.
 *
 * @example
 * emptyLayout(); // { version: 1, nodes: {} }
 */
export const emptyLayout = (): MachineLayout => ({ version: 1, nodes: {} });
