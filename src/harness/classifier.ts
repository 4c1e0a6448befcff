import * as z from 'zod/mini';
import { ToolKind } from '../safety/toolKind.js';
import { MISSING_TARGET_PREFIX } from '../safety/missingTarget.js';
import { callDigest } from '../safety/userWords.js';
import { formatIssues, safeParseInput, type Issue } from '../core/Issue.js';
import { discoveredTargets, type DiscoveredTarget } from './discoveredTargets.js';
import { ownValue, valuesAt } from './valuesAt.js';
import { factIssues } from './ruleFacts.js';

export { FixedRule, ArgumentRule, ToolRule } from './ToolRule.js';
import { ToolRule } from './ToolRule.js';

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

/**
 * Everything the gate needs to know of a call before it runs: what `beginToolCall` takes
 * besides the id and the tool, plus whether the tool's own result may verify it.
 */
export interface CallDescriptor {
  kind: ToolKind;
  /** The resource keys the call touches; a creating write's `created` keys among them. */
  targets?: string[];
  stateOnly?: true;
  trust?: 'untrusted';
  selfVerifying?: true;
  /** A write that creates the resource it acts on. */
  creates?: true;
  /** The keys of what it creates: exempt from validation, validated once it lands. */
  created?: string[];
  /** A read that sends data out: its targets are destinations, validated like a write's. */
  egress?: true;
}

/** A classification and the rule that made it. */
export interface RuleClassification extends CallDescriptor {
  tool: string;
  /** `rules`: the tool's own rule; `verbs`: a generic verb in the arguments; `default`: write (fail closed). */
  rule: 'rules' | 'verbs' | 'default';
  /** One sentence: which rule, which value, which targets. */
  detail: string;
}

/**
 * A classifier built from rules: call it for the kind, `describe` a call for the gate, `explain` a
 * decision, `discover` what a result revealed.
 */
export interface RulesClassifier extends ToolClassifier {
  describe(toolName: string, args?: unknown): CallDescriptor;
  explain(toolName: string, args?: unknown): RuleClassification;
  /**
   * The targets a call's result reveals by its rule's `discovers` (see `discoveredTargets`), for
   * `endToolCall({ discovered })`; empty without such a rule. An argument rule discovers only
   * for a call it classifies as a read or a resolve, so give the call's `args` for one.
   *
   * @example
   * const classify = createClassifier({ tools: { list_files: { kind: 'read', discovers: [{ path: 'files.id' }] } } });
   * classify.discover('list_files', { files: [{ id: 'a1' }] }); // [{ target: 'a1', field: 'files.id' }]
   */
  discover(toolName: string, result: unknown, args?: unknown): DiscoveredTarget[];
}

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
 * run no code), and only a string. Arguments that are no object (JSON text a
 * provider sent unparsed, a list, a number) cannot be read: `null`, as a
 * discriminator that is no string, never "absent" (a rule's `missing` is for
 * an object without the argument, or no arguments at all).
 */
function stringArg(args: unknown, name: string): Discriminator | undefined | null {
  if (args === undefined || args === null) return undefined;
  if (typeof args !== 'object' || Array.isArray(args)) return null;
  const desc = Object.getOwnPropertyDescriptor(args, name);
  if (!desc) return undefined;
  if (!('value' in desc) || typeof desc.value !== 'string') return null; // present but not a string
  return { value: normaliseValue(desc.value), plain: PLAIN.test(desc.value.trim()) };
}

const KIND_LIST = ToolKind.options.join(', ');
const ALLOWED_KEYS =
  'kind, arg, values, default, missing, targets, prefix, optionalTargets, trust, stateOnly, selfVerifying, discovers, creates, created, egress';

/** Every key a rule finds at argument paths, prefixed, deduplicated, in argument order; none if unreadable. */
function keysAt(paths: readonly string[] | undefined, prefix: string | undefined, args: unknown): string[] {
  const out: string[] = [];
  try {
    for (const path of paths ?? []) for (const v of valuesAt(args, path)) out.push((prefix ?? '') + v);
  } catch {
    return []; // arguments that cannot be read (a hostile Proxy): treated as giving none
  }
  return out.filter((t, i) => out.indexOf(t) === i);
}

const isDiscovery = (kind: ToolKind) => kind === 'read' || kind === 'resolve';

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
      // A rule object: report what is wrong inside the kind of rule it looks like.
      // A misspelt field first: its name says more than the field it left missing (`defualt`, not `default`).
      const branch = issue.errors['arg' in value ? 2 : 1];
      const inner = branch?.find((i) => i.code === 'unrecognized_keys') ?? branch?.[0];
      if (inner) return ruleIssue({ ...inner, path: [...issue.path, ...inner.path] } as z.core.$ZodIssue, rules);
    }
    return {
      code,
      path,
      message: `expected a tool kind (one of ${KIND_LIST}), a rule { kind, targets?, prefix?, trust?, stateOnly?, selfVerifying?, discovers?, creates?, created?, egress?, optionalTargets? } or an argument rule { arg, values, default }, got ${got}`,
    };
  }
  if (issue.code === 'invalid_value' && ToolKind.options.every((k) => issue.values.includes(k))) {
    return { code, path, message: `expected a tool kind (one of ${KIND_LIST}), got ${got}` };
  }
  if (issue.code === 'invalid_value') {
    const allowed = issue.values.map((v) => JSON.stringify(v)).join(', ');
    return { code, path, message: `expected one of ${allowed}, got ${got}` };
  }
  if (issue.code === 'unrecognized_keys' && issue.path[0] === 'tools') {
    return { code, path, message: `${issue.message}: not a rule field (allowed: ${ALLOWED_KEYS})` };
  }
  if (issue.code === 'invalid_type') {
    return { code, path, message: `expected ${issue.expected}, got ${got}` };
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
export function createClassifier(rules: unknown): RulesClassifier {
  const tools = ownValue(rules, 'tools');
  if (typeof tools === 'object' && tools !== null && Object.hasOwn(tools, '__proto__')) {
    // zod's records drop this key without a word: the rule would vanish and the tool fail closed silently.
    throw new ClassifierRulesError([
      {
        code: 'invalid_key',
        path: ['tools', '__proto__'],
        message: 'a tool named "__proto__" cannot be given a rule: it is not usable as a key; the tool stays a write',
      },
    ]);
  }
  const parsed = safeParseInput(ClassifierRules, rules);
  if (!parsed.success) {
    throw new ClassifierRulesError(parsed.error.issues.map((i) => ruleIssue(i, rules)));
  }
  const { tools: toolRules, verbArgs = ['action', 'operation'], verbs } = parsed.data;
  const misplaced = factIssues(toolRules);
  if (misplaced.length > 0) throw new ClassifierRulesError(misplaced);
  // Maps, not objects: a tool named `constructor` is just a name.
  const table = new Map<string, ToolRule>();
  for (const [name, rule] of Object.entries(toolRules)) {
    table.set(
      name,
      typeof rule === 'string' || !('arg' in rule)
        ? rule
        : {
            ...rule,
            values: Object.fromEntries(Object.entries(rule.values).map(([v, k]) => [normaliseValue(v), k])),
          },
    );
  }
  const valueTables = new Map<string, Map<string, ToolKind>>();
  for (const [name, rule] of table) {
    if (typeof rule !== 'string' && 'arg' in rule) valueTables.set(name, new Map(Object.entries(rule.values)));
  }
  const writeVerbs = new Set((verbs?.write ?? GENERIC_WRITE_VERBS).map(normaliseValue));
  const readVerbs = new Set((verbs?.read ?? GENERIC_READ_VERBS).map(normaliseValue));

  const classify = (toolName: string, args?: unknown): ToolKind => {
    if (typeof toolName !== 'string') return 'write';
    const rule = table.get(toolName);
    if (rule !== undefined) {
      if (typeof rule === 'string') return rule;
      if (!('arg' in rule)) return rule.kind;
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
  const kindOf = (toolName: string, args?: unknown): ToolKind => {
    try {
      return classify(toolName, args);
    } catch {
      return 'write'; // arguments that cannot be read (a hostile Proxy) fail closed
    }
  };

  const explain = (toolName: string, args?: unknown): RuleClassification => {
    const kind = kindOf(toolName, args);
    const tool = typeof toolName === 'string' ? toolName : String(toolName);
    const rule = typeof toolName === 'string' ? table.get(toolName) : undefined;
    if (rule === undefined)
      return kind === 'write'
        ? { tool, kind, rule: 'default', detail: 'default: no rule names it, so write (fail closed)' }
        : { tool, kind, rule: 'verbs', detail: `verbs: a generic ${kind} verb in the call's arguments` };
    const out: RuleClassification = { tool, kind, rule: 'rules', detail: `rules: tools.${tool}` };
    if (typeof rule === 'string') {
      out.detail = `rules: tools.${tool} = ${rule}`;
      return out;
    }
    if ('arg' in rule) out.detail = `rules: tools.${tool} by argument "${rule.arg}"`;
    else out.detail = `rules: tools.${tool}.kind = ${rule.kind}`;
    const creates = rule.creates === true && kind === 'write';
    const created = creates ? keysAt(rule.created, rule.prefix, args) : [];
    if (rule.targets) {
      let targets = keysAt(rule.targets, rule.prefix, args);
      // A write whose target arguments are missing names a target no read can validate: it fails closed,
      // unless the rule says they are optional. (A creating write's `created` arguments never do this.)
      // The placeholder carries a digest of the arguments: a person who approves one such call
      // validates that call, not every later call that leaves the argument out.
      // An egress read that names no destination is refused the same way: its destination may be in an
      // argument the rule does not name, and an egress read is checked like a write.
      const checked = kind === 'write' || (kind === 'read' && rule.egress === true);
      if (targets.length === 0 && checked && rule.optionalTargets !== true) targets = [missingTarget(tool, args)];
      if (targets.length > 0) {
        out.targets = targets;
        out.detail += `, targets from ${rule.targets.join(', ')}: ${targets.join(', ')}`;
      } else if (kind === 'write') out.detail += `, targets from ${rule.targets.join(', ')}: none given (optional)`;
    }
    if (creates) {
      // What it creates is among the resources it touches: a read of it verifies the write.
      if (created.length > 0)
        out.targets = [...(out.targets ?? []), ...created.filter((t) => !(out.targets ?? []).includes(t))];
      out.creates = true;
      if (created.length > 0) out.created = created;
      out.detail += created.length > 0 ? `, creates ${created.join(', ')}` : ', creates';
    }
    if (rule.egress === true && kind === 'read') {
      out.egress = true;
      out.detail += ', egress: its targets are destinations';
    }
    if (rule.discovers && isDiscovery(kind))
      out.detail += `, discovers ${rule.discovers.map((d) => `${d.path === '' ? 'the result' : d.path}${d.prefix ? ` as ${d.prefix}…` : ''}`).join(', ')}`;
    if (rule.trust === 'untrusted') out.trust = 'untrusted';
    if (rule.stateOnly === true) out.stateOnly = true;
    if (rule.selfVerifying === true) out.selfVerifying = true;
    return out;
  };

  const describe = (toolName: string, args?: unknown): CallDescriptor => {
    const { tool: _tool, rule: _rule, detail: _detail, ...descriptor } = explain(toolName, args);
    return descriptor;
  };

  const discover = (toolName: string, result: unknown, args?: unknown): DiscoveredTarget[] => {
    const rule = typeof toolName === 'string' ? table.get(toolName) : undefined;
    if (rule === undefined || typeof rule === 'string' || !rule.discovers) return [];
    return isDiscovery(kindOf(toolName, args)) ? discoveredTargets(result, rule.discovers) : [];
  };

  const classifier = ((toolName: string, args?: unknown) => kindOf(toolName, args)) as RulesClassifier;
  Object.defineProperties(classifier, {
    describe: { value: describe },
    explain: { value: explain },
    discover: { value: discover },
  });
  return classifier;
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
export const classifyToolCall: RulesClassifier = createClassifier({ tools: {} });

/**
 * The placeholder target of a write that leaves its target arguments out: the tool and a digest of
 * the call's arguments (for arguments with no digest, a number of this call's own). No read,
 * discovery or words validate it; a person's approval of the call does, for calls with those very
 * arguments only.
 */
function missingTarget(tool: string, args: unknown): string {
  let digest: string;
  try {
    digest = callDigest({ tool, args }).slice('call:'.length);
  } catch {
    // Arguments with no digest (a bigint, a cycle): a placeholder of this call's own, which no approval
    // of another call validates. (Before, the throw escaped `describe`, and the tool loop judged the
    // call a write with no targets at all, which binding lets run.)
    digest = `unreadable-${++unreadableCalls}`;
  }
  return `${MISSING_TARGET_PREFIX}${tool}@${digest}`;
}

/** Numbers the placeholders of calls whose arguments have no digest, so no two are equal. */
let unreadableCalls = 0;
