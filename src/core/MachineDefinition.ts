import * as z from 'zod/mini';
import type { AnyMachineKind } from './MachineKind.js';
import { safeParseInput } from './Issue.js';

/*
 * The statechart as data: what `machines/*.json` holds. The shape follows
 * XState's own config (states, `on`, `target`, `guard`, `actions`,
 * `description`), restricted to what a reviewer can diff and an editor can
 * change: named guards and actions only, every transition list an array.
 */

/** A reference to a named guard or action: its name, or `{ type, params }`. */
export const NamedRef = z.union([
  z.string().check(z.minLength(1)),
  z.strictObject({ type: z.string().check(z.minLength(1)), params: z.optional(z.record(z.string(), z.unknown())) }),
]);
export type NamedRef = z.infer<typeof NamedRef>;

/**
 * The name of a guard or action reference: the string, or its `type`.
 *
 * @example
 * refName({ type: 'block', params: { reasonCode: 'UNRESOLVED_TOOL' } }); // 'block'
 */
export const refName = (ref: NamedRef): string => (typeof ref === 'string' ? ref : ref.type);

/**
 * The params of a guard or action reference, if it has any.
 *
 * @example
 * refParams({ type: 'block', params: { reasonCode: 'UNRESOLVED_TOOL' } }); // { reasonCode: 'UNRESOLVED_TOOL' }
 */
export const refParams = (ref: NamedRef): Record<string, unknown> | undefined =>
  typeof ref === 'string' ? undefined : ref.params;

export const TransitionDefinition = z.strictObject({
  /** The state to go to; absent for a transition that stays where it is. */
  target: z.optional(z.string().check(z.minLength(1))),
  guard: z.optional(NamedRef),
  actions: z.optional(z.array(NamedRef)),
  description: z.string().check(z.minLength(1)),
});
export type TransitionDefinition = z.infer<typeof TransitionDefinition>;

/** Transitions by event type, tried in order: the first whose guard passes is taken. */
export const TransitionMap = z.record(z.string(), z.array(TransitionDefinition));
export type TransitionMap = z.infer<typeof TransitionMap>;

export const StateDefinition = z.strictObject({
  description: z.string().check(z.minLength(1)),
  on: z.optional(TransitionMap),
});
export type StateDefinition = z.infer<typeof StateDefinition>;

const CatalogueEntry = z.strictObject({ description: z.string().check(z.minLength(1)) });

/**
 * A guard of the catalogue: one the kind implements (a description only), or one the JSON derives
 * from other guards of the catalogue with one combinator: `not` (a name), `and` or `or` (two names
 * or more). A derived guard is used by name as any other, so every tool reads it the same way.
 */
export const GuardEntry = z.strictObject({
  description: z.string().check(z.minLength(1)),
  not: z.optional(z.string().check(z.minLength(1))),
  and: z.optional(z.array(z.string().check(z.minLength(1))).check(z.minLength(2))),
  or: z.optional(z.array(z.string().check(z.minLength(1))).check(z.minLength(2))),
});
export type GuardEntry = z.infer<typeof GuardEntry>;

export const MachineDefinition = z.strictObject({
  $schema: z.optional(z.string()),
  id: z.string().check(z.minLength(1)),
  description: z.string().check(z.minLength(1)),
  initial: z.string().check(z.minLength(1)),
  /** One-line description of each guard the transitions may use. */
  guards: z.record(z.string(), GuardEntry),
  /** One-line description of each action the transitions may use. */
  actions: z.record(z.string(), CatalogueEntry),
  /** Transitions that apply in every state unless the state handles the event itself. */
  on: z.optional(TransitionMap),
  states: z.record(z.string(), StateDefinition),
});
export type MachineDefinition = z.infer<typeof MachineDefinition>;

/** One problem found in a machine definition: an {@link Issue} with the machine's own codes. */
export interface MachineIssue extends Issue {
  code:
    | 'invalid_shape'
    | 'unknown_state'
    | 'unknown_event'
    | 'unknown_guard'
    | 'unknown_action'
    | 'invalid_params'
    | 'undescribed';
  /** Where in the JSON, keys and indexes from the root: `['states', 'READING', 'on', 'TOOL_SUCCEEDED', 1, 'guard']`. */
  path: (string | number)[];
  message: string;
}

/** Thrown for a malformed machine; `issues` lists every problem found, not only the first. */
export class MachineDefinitionError extends IssueError<MachineIssue> {
  readonly code = 'INVALID_MACHINE' as const;
  constructor(issues: MachineIssue[]) {
    super(
      `invalid machine definition:\n${issues.map((i) => `  ${formatPath(i.path) || '(root)'}: ${i.message}`).join('\n')}`,
      issues,
    );
    this.name = 'MachineDefinitionError';
  }
}

import { formatPath, issuesOf, IssueError, type Issue } from './Issue.js';
export { formatPath };

/** Checks what the schema cannot: names resolve to states, events, guards and actions. */
function semanticIssues(def: MachineDefinition, kind: AnyMachineKind): MachineIssue[] {
  const issues: MachineIssue[] = [];
  const states = new Set(Object.keys(def.states));
  const events = new Set<string>(kind.eventTypes);
  const guards: Record<string, unknown> = kind.guards;
  const actions: Record<string, { params?: z.ZodMiniType }> = kind.actions;

  if (states.size === 0)
    issues.push({ code: 'unknown_state', path: ['states'], message: 'a machine needs at least one state' });
  if (!states.has(def.initial)) {
    issues.push({ code: 'unknown_state', path: ['initial'], message: `unknown state "${def.initial}"` });
  }
  for (const [name, entry] of Object.entries(def.guards)) {
    const combinators = (['not', 'and', 'or'] as const).filter((c) => entry[c] !== undefined);
    if (combinators.length === 0) {
      if (!Object.hasOwn(guards, name))
        issues.push({
          code: 'unknown_guard',
          path: ['guards', name],
          message: `no guard implementation named "${name}"`,
        });
      continue;
    }
    if (combinators.length > 1)
      issues.push({
        code: 'invalid_shape',
        path: ['guards', name],
        message: `a derived guard has one combinator, not ${combinators.join(' and ')}`,
      });
    if (Object.hasOwn(guards, name))
      issues.push({
        code: 'invalid_shape',
        path: ['guards', name],
        message: `"${name}" is implemented by the kind: a derived guard needs a name of its own`,
      });
    for (const c of combinators) {
      const operands = c === 'not' ? [entry.not!] : entry[c]!;
      operands.forEach((operand, i) => {
        const at = c === 'not' ? ['guards', name, 'not'] : ['guards', name, c, i];
        if (!Object.hasOwn(def.guards, operand))
          issues.push({
            code: 'unknown_guard',
            path: at,
            message: `unknown guard "${operand}" (not in the guard catalogue)`,
          });
        else if (Object.hasOwn(guards, operand) && typeof guards[operand] !== 'function')
          issues.push({
            code: 'invalid_params',
            path: at,
            message: `guard "${operand}" takes params, which a derived guard cannot give`,
          });
      });
    }
  }
  for (const name of derivedCycles(def.guards))
    issues.push({ code: 'invalid_shape', path: ['guards', name], message: `"${name}" is derived from itself` });
  for (const name of Object.keys(def.actions)) {
    if (!Object.hasOwn(actions, name)) {
      issues.push({
        code: 'unknown_action',
        path: ['actions', name],
        message: `no action implementation named "${name}"`,
      });
    }
  }

  const checkMap = (map: TransitionMap | undefined, base: (string | number)[]) => {
    for (const [event, transitions] of Object.entries(map ?? {})) {
      const at = [...base, event];
      if (!events.has(event)) {
        issues.push({
          code: 'unknown_event',
          path: at,
          message: `unknown event "${event}" (known: ${[...events].join(', ')})`,
        });
      }
      transitions.forEach((t, i) => {
        const tp = [...at, i];
        if (t.target !== undefined && !states.has(t.target)) {
          issues.push({
            code: 'unknown_state',
            path: [...tp, 'target'],
            message: `unknown target state "${t.target}"`,
          });
        }
        if (t.guard !== undefined) {
          const name = refName(t.guard);
          const derived = Object.hasOwn(def.guards, name) && guardOperands(def.guards[name]!).length > 0;
          if (!Object.hasOwn(guards, name) && !derived) {
            issues.push({ code: 'unknown_guard', path: [...tp, 'guard'], message: `unknown guard "${name}"` });
          } else if (!Object.hasOwn(def.guards, name)) {
            issues.push({
              code: 'undescribed',
              path: [...tp, 'guard'],
              message: `guard "${name}" is not described in "guards"`,
            });
          }
          issues.push(...guardParamIssues(kind, name, refParams(t.guard), [...tp, 'guard', 'params']));
        }
        (t.actions ?? []).forEach((a, j) => {
          const ap = [...tp, 'actions', j];
          const name = refName(a);
          if (!Object.hasOwn(actions, name)) {
            issues.push({ code: 'unknown_action', path: ap, message: `unknown action "${name}"` });
            return;
          }
          if (!Object.hasOwn(def.actions, name)) {
            issues.push({ code: 'undescribed', path: ap, message: `action "${name}" is not described in "actions"` });
          }
          const schema = actions[name]!.params;
          const params = refParams(a);
          if (!schema) {
            if (params !== undefined) {
              issues.push({
                code: 'invalid_params',
                path: [...ap, 'params'],
                message: `action "${name}" takes no params`,
              });
            }
            return;
          }
          const parsed = safeParseInput(schema, params);
          if (!parsed.success) {
            for (const issue of parsed.error.issues) {
              issues.push({
                code: 'invalid_params',
                path: [...ap, 'params', ...issue.path.map((k) => (typeof k === 'number' ? k : String(k)))],
                message: issue.message,
              });
            }
          }
        });
      });
    }
  };
  checkMap(def.on, ['on']);
  for (const [name, state] of Object.entries(def.states)) checkMap(state.on, ['states', name, 'on']);
  return issues;
}

export type MachineDefinitionResult =
  { success: true; data: MachineDefinition } | { success: false; error: MachineDefinitionError };

/**
 * Validates a machine definition (parsed JSON) against the schema and against
 * the guard, action and event registries of its kind, without throwing. The
 * generic loader knows no kind of its own: the root entry's
 * `safeParseMachineDefinition` defaults to the safety machine's.
 *
 * @example
 * const result = safeParseMachineDefinitionOfKind(JSON.parse(text), patrolMachineKind);
 * if (!result.success) console.error(result.error.message);
 */
export function safeParseMachineDefinitionOfKind(input: unknown, kind: AnyMachineKind): MachineDefinitionResult {
  const parsed = safeParseInput(MachineDefinition, input);
  if (!parsed.success) {
    return {
      success: false,
      error: new MachineDefinitionError(issuesOf(parsed.error).map((i) => ({ ...i, code: 'invalid_shape' as const }))),
    };
  }
  const issues = semanticIssues(parsed.data, kind);
  return issues.length
    ? { success: false, error: new MachineDefinitionError(issues) }
    : { success: true, data: parsed.data };
}

/**
 * Like {@link safeParseMachineDefinitionOfKind}, but throws a {@link MachineDefinitionError}.
 *
 * @example
 * const definition = parseMachineDefinitionOfKind(JSON.parse(text), patrolMachineKind);
 */
export function parseMachineDefinitionOfKind(input: unknown, kind: AnyMachineKind): MachineDefinition {
  const result = safeParseMachineDefinitionOfKind(input, kind);
  if (!result.success) throw result.error;
  return result.data;
}

/** The operands a derived guard names (none for a guard the kind implements). */
export function guardOperands(entry: GuardEntry): string[] {
  return entry.not !== undefined ? [entry.not] : (entry.and ?? entry.or ?? []);
}

/** The derived guards that reach themselves through their operands. */
function derivedCycles(entries: Record<string, GuardEntry>): string[] {
  const cyclic: string[] = [];
  for (const start of Object.keys(entries)) {
    const seen = new Set<string>();
    const stack = [...guardOperands(entries[start]!)];
    while (stack.length > 0) {
      const name = stack.pop()!;
      if (name === start) {
        cyclic.push(start);
        break;
      }
      if (seen.has(name) || !Object.hasOwn(entries, name)) continue;
      seen.add(name);
      stack.push(...guardOperands(entries[name]!));
    }
  }
  return cyclic;
}

/** What is wrong with the params a transition gives a guard: checked against the guard's schema, or refused if it takes none. */
function guardParamIssues(
  kind: AnyMachineKind,
  name: string,
  params: unknown,
  path: (string | number)[],
): MachineIssue[] {
  const impl = Object.hasOwn(kind.guards, name) ? kind.guards[name] : undefined;
  if (impl === undefined || typeof impl === 'function')
    return params === undefined ? [] : [{ code: 'invalid_params', path, message: `guard "${name}" takes no params` }];
  const parsed = safeParseInput(impl.params, params);
  if (parsed.success) return [];
  return parsed.error.issues.map((issue) => ({
    code: 'invalid_params' as const,
    path: [...path, ...issue.path.map((k) => (typeof k === 'number' ? k : String(k)))],
    message: issue.message,
  }));
}
