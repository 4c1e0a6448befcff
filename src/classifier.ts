import * as z from 'zod/mini';
import { formatPath } from './MachineDefinition.js';
import { ToolKind } from './toolKind.js';
import { safeParseInput } from './Issue.js';

/** A tool whose kind depends on one argument: a kind per value, a default, and what a missing argument means. */
export const ArgumentRule = z.strictObject({
  /** The discriminating argument, e.g. `action`, `type`, `operation`. */
  arg: z.string().check(z.minLength(1)),
  /** Kind per value (compared trimmed and lower-cased). */
  values: z.record(z.string(), ToolKind),
  /** Kind of a string value not listed in `values`. */
  default: ToolKind,
  /** Kind when the argument is absent. Default `write`: fail closed. */
  missing: z.optional(ToolKind),
});
export type ArgumentRule = z.infer<typeof ArgumentRule>;

/** Per tool: a fixed kind, or an argument rule. */
export const ToolRule = z.union([ToolKind, ArgumentRule]);
export type ToolRule = z.infer<typeof ToolRule>;

/** Declarative classification rules. Everything they do not cover is a write. */
export const ClassifierRules = z.strictObject({
  tools: z._default(z.record(z.string(), ToolRule), {}),
  /** Arguments holding a generic verb, for tools not in `tools`. Default `action`, `operation`. */
  verbArgs: z.optional(z.array(z.string().check(z.minLength(1)))),
  /** Generic verbs. Default {@link GENERIC_WRITE_VERBS} and {@link GENERIC_READ_VERBS}. */
  verbs: z.optional(z.strictObject({ write: z.array(z.string()), read: z.array(z.string()) })),
});
export type ClassifierRules = z.input<typeof ClassifierRules>;

/** Generic verbs that mean write. */
export const GENERIC_WRITE_VERBS = [
  'start',
  'stop',
  'restart',
  'delete',
  'shutdown',
  'reboot',
  'write',
  'append',
  'update',
  'trigger',
  'resolve',
  'dismiss',
  'control',
] as const;
/** Generic verbs that mean read. */
export const GENERIC_READ_VERBS = [
  'get',
  'list',
  'search',
  'query',
  'read',
  'logs',
  'status',
  'health',
  'describe',
  'inspect',
  'show',
] as const;

/** Classifies one tool call. Never throws: anything unknown or malformed is a write. */
export type ToolClassifier = (toolName: string, args?: unknown) => ToolKind;

/** Thrown for malformed classifier rules; the message names the path. */
export class ClassifierRulesError extends Error {
  readonly code = 'INVALID_RULES' as const;
  constructor(readonly issues: { path: string; message: string }[]) {
    super(`invalid classifier rules: ${issues.map((i) => `${i.path || '(root)'}: ${i.message}`).join('; ')}`);
    this.name = 'ClassifierRulesError';
  }
}

/**
 * Reads an own data property of untrusted arguments: never an inherited one
 * (so `__proto__` tricks cannot supply it), never a getter (so hostile objects
 * run no code), and only a string.
 */
function stringArg(args: unknown, name: string): string | undefined | null {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return undefined;
  const desc = Object.getOwnPropertyDescriptor(args, name);
  if (!desc) return undefined;
  if (!('value' in desc) || typeof desc.value !== 'string') return null; // present but not a string
  return desc.value.trim().toLowerCase();
}

/**
 * Builds a classifier from declarative rules, validated on load: per tool a
 * fixed kind or a discriminating argument; then generic verbs in
 * `action`/`operation`; then write. Unknown tools, missing or non-string
 * discriminators and unknown values fail closed as write unless a rule says
 * otherwise.
 *
 * @throws {ClassifierRulesError} naming the bad path.
 * @example
 * const classify = createClassifier({
 *   tools: { get_logs: 'read', vm: { arg: 'action', values: { status: 'read', reboot: 'write' }, default: 'write' } },
 * });
 * classify('vm', { action: 'status' }); // 'read'
 * classify('vm', {});                   // 'write'
 * classify('unknown_tool');             // 'write'
 */
export function createClassifier(rules: unknown): ToolClassifier {
  const parsed = safeParseInput(ClassifierRules, rules);
  if (!parsed.success) {
    throw new ClassifierRulesError(parsed.error.issues.map((i) => ({ path: formatPath(i.path), message: i.message })));
  }
  const { tools, verbArgs = ['action', 'operation'], verbs } = parsed.data;
  // Maps, not objects: a tool named `__proto__` or `constructor` is just a name.
  const table = new Map<string, ToolRule>();
  for (const [name, rule] of Object.entries(tools)) {
    table.set(
      name,
      typeof rule === 'string'
        ? rule
        : {
            ...rule,
            values: Object.fromEntries(Object.entries(rule.values).map(([v, k]) => [v.trim().toLowerCase(), k])),
          },
    );
  }
  const valueTables = new Map<string, Map<string, ToolKind>>();
  for (const [name, rule] of table) {
    if (typeof rule !== 'string') valueTables.set(name, new Map(Object.entries(rule.values)));
  }
  const writeVerbs = new Set((verbs?.write ?? GENERIC_WRITE_VERBS).map((v) => v.toLowerCase()));
  const readVerbs = new Set((verbs?.read ?? GENERIC_READ_VERBS).map((v) => v.toLowerCase()));

  return (toolName: string, args?: unknown): ToolKind => {
    if (typeof toolName !== 'string') return 'write';
    const rule = table.get(toolName);
    if (rule !== undefined) {
      if (typeof rule === 'string') return rule;
      const value = stringArg(args, rule.arg);
      if (value === undefined) return rule.missing ?? 'write';
      if (value === null) return 'write';
      return valueTables.get(toolName)!.get(value) ?? rule.default;
    }
    // Generic verbs: every verb present must be a read verb for the call to be a read.
    let sawRead = false;
    for (const name of verbArgs) {
      const value = stringArg(args, name);
      if (value === undefined) continue;
      if (value === null || !readVerbs.has(value) || writeVerbs.has(value)) return 'write';
      sawRead = true;
    }
    return sawRead ? 'read' : 'write';
  };
}

/**
 * The generic classifier: no tool table, only generic verbs in `action` or
 * `operation`, then write.
 *
 * @example
 * classifyToolCall('anything', { action: 'list' });    // 'read'
 * classifyToolCall('anything', { action: 'restart' }); // 'write'
 * classifyToolCall('anything');                        // 'write'
 */
export const classifyToolCall: ToolClassifier = createClassifier({ tools: {} });
