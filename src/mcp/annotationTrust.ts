/*
 * How far the gateway (and `classify`) believes a server's MCP tool
 * annotations. Kept free of the MCP SDK so `classify FILE` runs without it.
 */

/** The values of `--trust-annotations`, the default first. */
export const ANNOTATION_TRUST = ['all', 'destructive-only', 'none'] as const;
/** `all`: annotations classify; `destructive-only`: they can only make a tool stricter; `none`: ignored. */
export type AnnotationTrust = (typeof ANNOTATION_TRUST)[number];

const asObject = (v: unknown): Record<string, unknown> | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

/**
 * A tool declaration as the classifier should see it under a trust mode:
 *
 * - `all`: unchanged (`readOnlyHint: true` is a read, anything else a write).
 * - `destructive-only`: annotations that say a tool writes are kept; a
 *   `readOnlyHint: true` is not believed (the annotations are dropped, so the
 *   tool is classified as if it declared nothing: rules, the opt-in name
 *   verbs, then write), and a tool claiming both read-only and destructive
 *   is a write.
 * - `none`: annotations are dropped; only rules can make a tool anything but
 *   a write.
 *
 * @example
 * withAnnotationTrust({ name: 'get', annotations: { readOnlyHint: true } }, 'destructive-only'); // { name: 'get' }
 */
export function withAnnotationTrust<T extends { annotations?: unknown }>(tool: T, trust: AnnotationTrust): T {
  const annotations = asObject(tool.annotations);
  if (trust === 'all' || annotations === undefined) return tool;
  const { annotations: _, ...rest } = tool;
  if (trust === 'none') return rest as T;
  if (annotations.readOnlyHint !== true) return tool;
  // Read-only is the one claim that lowers the gate; believe it from no server at this level.
  return (
    annotations.destructiveHint === true
      ? { ...rest, annotations: { readOnlyHint: false, destructiveHint: true } }
      : rest
  ) as T;
}
