import * as z from 'zod/mini';
import { ToolKind } from './toolKind.js';
import { formatIssues, safeParseInput, type Issue } from './Issue.js';

/** A tool whose kind depends on one argument: a kind per value, a default, and what a missing argument means. */
export const ArgumentRule = z.strictObject({
  /** The discriminating argument, e.g. `action`, `type`, `operation`. */
  arg: z.string().check(z.minLength(1)),
  /** Kind per value (compared trimmed, NFKC-normalised and case-folded; see {@link normaliseValue}). */
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
  constructor(readonly issues: Issue[]) {
    super(`invalid classifier rules: ${formatIssues(issues)}`);
    this.name = 'ClassifierRulesError';
  }
}

/**
 * How a discriminator value and a rule's value are compared: trimmed, NFKC
 * (so `ｄｉｓｍｉｓｓ` and `dismiſſ` read `dismiss`) and case-folded (upper then
 * lower case, so `ß` matches `ss` and `ı` matches `i`), as a downstream tool
 * that folds case would see it.
 */
function normaliseValue(value: string): string {
  return value.trim().normalize('NFKC').toUpperCase().toLowerCase();
}

/** Printable ASCII only: no invisible, control, space or non-ASCII character. */
const PLAIN = /^[\x21-\x7e]*$/;

/** A discriminator: its normalised form, and whether it was plain (printable ASCII) as given. */
interface Discriminator {
  value: string;
  plain: boolean;
}

/**
 * Reads an own data property of untrusted arguments: never an inherited one
 * (so `__proto__` tricks cannot supply it), never a getter (so hostile objects
 * run no code), and only a string.
 */
function stringArg(args: unknown, name: string): Discriminator | undefined | null {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return undefined;
  const desc = Object.getOwnPropertyDescriptor(args, name);
  if (!desc) return undefined;
  if (!('value' in desc) || typeof desc.value !== 'string') return null; // present but not a string
  return { value: normaliseValue(desc.value), plain: PLAIN.test(desc.value.trim()) };
}

const KIND_LIST = ToolKind.options.join(', ');

/** A rules issue in words a rule author can act on: a bad kind lists the kinds. */
function ruleIssue(issue: z.core.$ZodIssue, rules: unknown): Issue {
  const path = issue.path.map((k) => (typeof k === 'number' ? k : String(k)));
  const code = issue.code;
  let value: unknown = rules;
  for (const key of issue.path)
    value = typeof value === 'object' && value !== null ? (value as Record<PropertyKey, unknown>)[key] : undefined;
  const got = typeof value === 'string' ? JSON.stringify(value) : value === null ? 'null' : typeof value;
  if (issue.code === 'invalid_union' && issue.path[0] === 'tools' && issue.path.length === 2) {
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      // An argument rule: report what is wrong inside it.
      const inner = issue.errors[1]?.[0];
      if (inner) return ruleIssue({ ...inner, path: [...issue.path, ...inner.path] } as z.core.$ZodIssue, rules);
    }
    return { code, path, message: `expected a tool kind (one of ${KIND_LIST}) or an argument rule, got ${got}` };
  }
  if (issue.code === 'invalid_value' && ToolKind.options.every((k) => issue.values.includes(k))) {
    return { code, path, message: `expected a tool kind (one of ${KIND_LIST}), got ${got}` };
  }
  if (issue.code === 'unrecognized_keys') {
    // Name what may go there: the keys of the object the stray key sits in.
    const shape =
      issue.path.length === 0
        ? ClassifierRules.shape
        : issue.path.length === 2 && issue.path[0] === 'tools'
          ? ArgumentRule.shape
          : undefined;
    if (shape) return { code, path, message: `${issue.message} (allowed: ${Object.keys(shape).join(', ')})` };
  }
  return { code, path, message: issue.message };
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
    throw new ClassifierRulesError(parsed.error.issues.map((i) => ruleIssue(i, rules)));
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
            values: Object.fromEntries(Object.entries(rule.values).map(([v, k]) => [normaliseValue(v), k])),
          },
    );
  }
  const valueTables = new Map<string, Map<string, ToolKind>>();
  for (const [name, rule] of table) {
    if (typeof rule !== 'string') valueTables.set(name, new Map(Object.entries(rule.values)));
  }
  const writeVerbs = new Set((verbs?.write ?? GENERIC_WRITE_VERBS).map(normaliseValue));
  const readVerbs = new Set((verbs?.read ?? GENERIC_READ_VERBS).map(normaliseValue));

  const classify = (toolName: string, args?: unknown): ToolKind => {
    if (typeof toolName !== 'string') return 'write';
    const rule = table.get(toolName);
    if (rule !== undefined) {
      if (typeof rule === 'string') return rule;
      const found = stringArg(args, rule.arg);
      if (found === undefined) return rule.missing ?? 'write';
      if (found === null) return 'write';
      const named = valueTables.get(toolName)!.get(found.value);
      if (named !== undefined) return named;
      // A look-alike (invisible or non-ASCII characters) that no rule names is a write:
      // a downstream tool may read it as a value that writes.
      return found.plain ? rule.default : 'write';
    }
    // Generic verbs: every verb present must be a read verb for the call to be a read.
    let sawRead = false;
    for (const name of verbArgs) {
      const found = stringArg(args, name);
      if (found === undefined) continue;
      if (found === null || !readVerbs.has(found.value) || writeVerbs.has(found.value)) return 'write';
      sawRead = true;
    }
    return sawRead ? 'read' : 'write';
  };
  return (toolName: string, args?: unknown): ToolKind => {
    try {
      return classify(toolName, args);
    } catch {
      return 'write'; // arguments that cannot be read (a hostile Proxy) fail closed
    }
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
