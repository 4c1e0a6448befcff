import type { CallDescriptor } from '../classifier.js';
import { callDigest } from '../../safety/userWords.js';
import { MISSING_TARGET_PREFIX } from '../../safety/missingTarget.js';
import type { ToolCallStart } from '../../safety/SafetySessionTypes.js';
import type { ToolKind } from '../../safety/toolKind.js';

/** What a classifier said of a call beyond its kind (`beginToolCall` takes all but `selfVerifying`). */
export type CallFacts = Omit<CallDescriptor, 'kind'>;

const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every((t) => typeof t === 'string');

/**
 * The well-formed facts of a classifier's descriptor (one reading for the tool loop and the SDK adapters):
 * a field of the wrong shape is dropped, so a write loses its targets and the gate blocks it (fail closed).
 */
export function callFacts(descriptor: Record<string, unknown>): CallFacts {
  const facts: CallFacts = {};
  if (strings(descriptor.targets)) facts.targets = [...descriptor.targets];
  if (descriptor.stateOnly === true) facts.stateOnly = true;
  if (descriptor.trust === 'untrusted') facts.trust = 'untrusted';
  if (descriptor.selfVerifying === true) facts.selfVerifying = true;
  if (descriptor.creates === true) facts.creates = true;
  if (strings(descriptor.created)) facts.created = [...descriptor.created];
  if (descriptor.egress === true) facts.egress = true;
  return facts;
}

/** Numbers the placeholders of calls no classifier could judge, so no two are equal. */
let unclassified = 0;

/**
 * What a call is when its classifier threw (or, for the adapters, said no kind): a write whose target
 * is a placeholder of its own (`?missing:<tool>@unclassified-<n>`), which nothing validates. A write
 * with no targets at all would be judged by kind alone, so with binding it could run once anything
 * was read; a person who approves it validates this call's placeholder, no other call's.
 */
export function unclassifiedWrite(tool: string): { kind: 'write'; targets: string[] } {
  return { kind: 'write', targets: [`${MISSING_TARGET_PREFIX}${tool.slice(0, 256)}@unclassified-${++unclassified}`] };
}

/** The fields of `beginToolCall`'s argument that a call's facts fill, in its order. */
const START_FACTS = [
  'targets',
  'stateOnly',
  'trust',
  'creates',
  'created',
  'egress',
  'digest',
  'check',
  'delegates',
] as const;

/**
 * A call as the session begins it: its id, kind and tool, and each of its facts that is set (a true
 * flag, a list, a trust, a digest). What the tool loop and every coding-agent hook pass to
 * `beginToolCall`; nothing else of `facts` rides along.
 */
export function callStartOf(
  id: string,
  kind: ToolKind,
  tool: string,
  facts: { readonly [K in (typeof START_FACTS)[number]]?: unknown },
): ToolCallStart {
  const start: Record<string, unknown> = { id, kind, tool };
  for (const key of START_FACTS) {
    const value = facts[key];
    if (value !== undefined && value !== null && value !== false) start[key] = value;
  }
  return start as unknown as ToolCallStart;
}

/**
 * The digest a person's approval binds to (its tool, canonical arguments and targets), or none for
 * arguments that cannot be read (a throwing getter, a bigint): such a call can never match an approval.
 */
export function digestOf(tool: string, args: unknown, targets: readonly string[] | undefined): string | undefined {
  try {
    return callDigest({ tool, args, ...(targets && { targets }) });
  } catch {
    return undefined;
  }
}

/**
 * The targets a call's result revealed by its rule's `discovers`, from a rules classifier's `discover`:
 * only `{ target, field }` entries are kept, and a classifier without `discover`, or one that throws,
 * reveals nothing (a result never validates more than its rule declares).
 */
export function discoveredBy(
  classify: unknown,
  tool: string,
  value: unknown,
  args: unknown,
): { target: string; field: string }[] {
  const discover = (classify as { discover?: unknown } | null)?.discover;
  if (typeof discover !== 'function') return [];
  let found: unknown;
  try {
    found = discover.call(classify, tool, value, args);
  } catch {
    return [];
  }
  if (!Array.isArray(found)) return [];
  return found.filter(
    (d): d is { target: string; field: string } =>
      typeof d === 'object' && d !== null && typeof d.target === 'string' && typeof d.field === 'string',
  );
}
