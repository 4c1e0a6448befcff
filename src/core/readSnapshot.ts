/*
 * The first half of every restore, whatever the kind: the input read once as JSON, checked to be a
 * snapshot of the expected format (and kind), and brought to the current version. What is left is
 * the kind's own schema and invariants.
 */

/** What a restore expects of a snapshot before its kind's schema reads it. */
export interface SnapshotSpec {
  /** The `format` field every snapshot of this reader carries. */
  format: string;
  /** For snapshots that name their kind (`kind` field): the kind expected. */
  kind?: string;
  /** The version this build writes, and how each older version becomes the next one. */
  version: number;
  migrations: Record<number, (snapshot: Record<string, unknown>) => Record<string, unknown>>;
}

/**
 * Reads a snapshot for a restore: text is parsed, an object goes through JSON, so getters, Proxies and
 * prototypes play no part, and anything that cannot be read that way (a getter that throws, a hostile
 * Proxy, a cycle) is the caller's error, never a raw one. Then the format (and kind) are checked and
 * older versions migrated. `fail` makes the caller's error from a message.
 *
 * @example
 * readSnapshot('{"format":"f","version":1}', { format: 'f', version: 1, migrations: {} }, (m) => new Error(m));
 * // { format: 'f', version: 1 }
 */
export function readSnapshot(
  input: unknown,
  spec: SnapshotSpec,
  fail: (message: string) => Error,
): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(typeof input === 'string' ? input : (JSON.stringify(input) ?? 'undefined'));
  } catch (e) {
    throw fail(`invalid snapshot: not JSON (${messageOf(e)})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const got = Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value;
    throw fail(`invalid snapshot: expected an object, got ${got}`);
  }
  const snapshot = value as Record<string, unknown>;
  if (snapshot['format'] !== spec.format)
    throw fail(`invalid snapshot: format: expected "${spec.format}", got ${JSON.stringify(snapshot['format'])}`);
  if (spec.kind !== undefined && snapshot['kind'] !== spec.kind)
    throw fail(`invalid snapshot: kind: expected "${spec.kind}", got ${JSON.stringify(snapshot['kind'])}`);
  return migrateSnapshot(snapshot, spec, (version) =>
    fail(
      `unsupported snapshot version ${JSON.stringify(version)}${spec.kind === undefined ? '' : ` of kind "${spec.kind}"`}: this build reads versions up to ${spec.version}`,
    ),
  );
}

function messageOf(e: unknown): string {
  try {
    return e instanceof Error ? e.message : String(e);
  } catch {
    return 'unreadable error';
  }
}

/**
 * Brings an older snapshot to the current version, one migration at a time (each older version to
 * the next), for any kind. `unsupported` words the error of a version with no migration.
 */
function migrateSnapshot<T extends Record<string, unknown>>(
  value: T,
  spec: { version: number; migrations: Record<number, (snapshot: Record<string, unknown>) => Record<string, unknown>> },
  unsupported: (version: unknown) => Error,
): T {
  let current: Record<string, unknown> = value;
  for (;;) {
    const { version } = current;
    if (version === spec.version) return current as T;
    const migrate =
      typeof version === 'number' && Object.hasOwn(spec.migrations, version) ? spec.migrations[version] : undefined;
    if (!migrate) throw unsupported(version);
    current = migrate(current);
  }
}
