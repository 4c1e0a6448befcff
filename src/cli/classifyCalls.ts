import { readFileSync } from 'node:fs';
import * as z from 'zod/mini';
import type { Classification, ExplainingClassifier } from '../classify/index.js';
import { ClassifierRules, type ToolRule } from '../harness/classifier.js';
import { formatIssues, issuesOf, safeParseInput } from '../core/Issue.js';
import { MISSING_TARGET_PREFIX } from '../safety/missingTarget.js';
import { createSafetySession } from '../safety/SafetySession.js';
import type { ToolCallStart } from '../safety/SafetySessionTypes.js';
import { UsageError } from './Command.js';
import { didYouMean } from '../core/didYouMean.js';
import { callFacts } from '../harness/loop/callFacts.js';

/*
 * `classify --call` / `--calls`: what the gate takes of each call before it runs (its kind, the
 * targets it carries, what its rule says of them), so target binding can be checked offline,
 * before a gateway starts with --targets bind.
 */

/** One call to classify: the MCP `tools/call` params. */
// The MCP `tools/call` params: a misspelt key (`args`) is refused rather than read as a call without arguments.
const Call = z.strictObject({
  name: z.string({ error: 'expected a non-empty tool name' }).check(z.minLength(1, 'expected a non-empty tool name')),
  arguments: z.optional(z.record(z.string(), z.unknown())),
  _meta: z.optional(z.unknown()),
});
type Call = z.infer<typeof Call>;

/** A call as `classify` shows it: the classification, the targets, and what binding makes of it. */
export interface CallClassification extends Classification {
  arguments?: Record<string, unknown>;
  /** The rule's target arguments are optional: a call that gives none carries no targets. */
  optionalTargets?: true;
  /** The rule's target arguments, none of which the call gives: a write then carries `?missing:<tool>@<digest>`. */
  missingTargets?: string[];
  /** A read's or resolve's result fields whose values validate targets (the rule's `discovers`). */
  discovers?: { path: string; prefix?: string }[];
  /** What `--targets bind` does with the call, when that is more than its targets say. */
  note?: string;
}

/**
 * A `--call` value: `NAME` or `NAME=JSON` (the arguments, a JSON object).
 *
 * @example
 * parseCallOption('send_money={"recipient":"GB29"}'); // { name: 'send_money', arguments: { recipient: 'GB29' } }
 */
export function parseCallOption(text: string): Call {
  const at = text.indexOf('=');
  const name = at === -1 ? text : text.slice(0, at);
  if (name.trim() === '') throw new UsageError(`--call "${text}": expected NAME or NAME=JSON, with a tool name`);
  if (at === -1) return { name };
  let args: unknown;
  try {
    args = JSON.parse(text.slice(at + 1));
  } catch (e) {
    throw new UsageError(`--call ${name}: the arguments are not JSON: ${(e as Error).message}`);
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args))
    throw new UsageError(`--call ${name}: the arguments must be a JSON object, got ${JSON.stringify(args)}`);
  return { name, arguments: args as Record<string, unknown> };
}

/** A `--calls` file: a JSON array of `{ "name", "arguments"? }`; prints one line and returns undefined when bad. */
export function readCallsFile(path: string, err: (text: string) => void): Call[] | undefined {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    // One line: the parser's message quotes the text, line breaks and all.
    err(`classify: --calls ${path}: ${(e as Error).message.replace(/\r?\n/g, '\\n')}`);
    return undefined;
  }
  const parsed = safeParseInput(z.array(Call).check(z.minLength(1, 'expected at least one call')), json);
  if (!parsed.success) {
    const issues = issuesOf(parsed.error).map((i) => ({ ...i, path: ['calls', ...i.path] }));
    err(`classify: --calls ${path}: expected [{ "name", "arguments"? }]: ${formatIssues(issues)}`);
    return undefined;
  }
  return parsed.data;
}

const isDiscovery = (kind: string) => kind === 'read' || kind === 'resolve';

/** The rule's facts that are not in the classification: its target arguments and what its result reveals. */
function ruleOf(tools: Record<string, ToolRule>, tool: string): Exclude<ToolRule, string> | undefined {
  const rule = Object.hasOwn(tools, tool) ? tools[tool] : undefined;
  return typeof rule === 'object' ? rule : undefined;
}

/** The rules' tools, by name (none without rules). */
function ruleTools(rules: unknown): Record<string, ToolRule> {
  return rules === undefined ? {} : ClassifierRules.parse(rules).tools;
}

/**
 * What a bound session decides for the call, asked of the gate itself: in a fresh session (nothing
 * found yet), and after a trusted read validated some other target. A reason code, or `runs`.
 */
function gateDecisions(row: CallClassification): { fresh: string; afterRead: string } {
  // As the gateway begins a call (createMcpGateway's admitListed): the facts the tool loop and adapters read too.
  const { selfVerifying: _selfVerifying, ...facts } = callFacts(row as unknown as Record<string, unknown>);
  const start: ToolCallStart = { id: 'call', tool: row.tool, kind: row.kind, ...facts };
  const fresh = createSafetySession({ targets: 'bind' });
  const afterRead = createSafetySession({ targets: 'bind' });
  afterRead.beginToolCall({ id: 'read', kind: 'read', tool: 'a read', targets: ['another:target'] });
  afterRead.endToolCall({ id: 'read', ok: true });
  return {
    fresh: fresh.beginToolCall(start)?.reasonCode ?? 'runs',
    afterRead: afterRead.beginToolCall(start)?.reasonCode ?? 'runs',
  };
}

/** What `--targets bind` does with a call whose targets alone do not say it. */
function noteOf(row: CallClassification): string | undefined {
  const missing = row.targets?.find((t) => t.startsWith(MISSING_TARGET_PREFIX));
  if (missing !== undefined) {
    const { fresh, afterRead } = gateDecisions(row);
    const said = (code: string) => (code === 'runs' ? 'lets it run' : code);
    const decided =
      fresh === afterRead
        ? said(fresh)
        : `${said(fresh)} before anything is found, ${said(afterRead)} after a read found something else`;
    return `the call gives none of its target arguments (${row.missingTargets!.join(', ')}), so it carries ${missing}, which no read, result or user's words validate; --targets bind: ${decided}; only a person's approval of this very call (--escalate) lets it run`;
  }
  if (row.stateOnly) return undefined;
  if (row.kind === 'write' && row.targets === undefined)
    return row.optionalTargets
      ? 'no target given (optional): --targets bind judges it as a write without targets'
      : 'no targets: --targets bind checks nothing of it (a write without targets)';
  if (row.egress && row.targets === undefined)
    return 'an egress read that names no destination (optional): --targets bind has nothing to check';
  return undefined;
}

/**
 * Each call classified as the gateway classifies it, with what its rule says of its targets.
 *
 * @example
 * classifyCalls(classifyFromTools([], { rules }), rules, [{ name: 'send_money', arguments: {} }])[0].targets;
 * // ['?missing:send_money@…']
 */
export function classifyCalls(
  classifier: ExplainingClassifier,
  rules: unknown,
  calls: readonly Call[],
): CallClassification[] {
  // The tools a rule or the tool list names: a call of any other is a guess at one of them, or a typo.
  // The rules read once for every call.
  const tools = ruleTools(rules);
  const known = [...new Set([...classifier.tools.keys(), ...Object.keys(tools)])];
  return calls.map(({ name, arguments: args }) => {
    const row: CallClassification = {
      ...classifier.explain(name, args),
      ...(args !== undefined && { arguments: args }),
    };
    if (row.rule === 'default') {
      const guess = didYouMean(name, known);
      row.note = `no rule names ${JSON.stringify(name)} and no tool list declares it: the gateway takes it as a write with no targets (fail closed)${guess ? `; did you mean ${guess}?` : ''}`;
      return row;
    }
    const rule = row.rule === 'rules' ? ruleOf(tools, name) : undefined;
    if (rule?.optionalTargets === true && rule.targets && (row.kind === 'write' || row.egress))
      row.optionalTargets = true;
    if (rule?.targets && row.targets?.some((t) => t.startsWith(MISSING_TARGET_PREFIX)))
      row.missingTargets = [...rule.targets];
    if (rule?.discovers && isDiscovery(row.kind))
      row.discovers = rule.discovers.map((d) => ({ path: d.path, ...(d.prefix && { prefix: d.prefix }) }));
    const note = noteOf(row);
    if (note !== undefined) row.note = note;
    return row;
  });
}

/** The flags of a call, as the table shows them. */
function flagsOf(row: CallClassification): string {
  const flags: string[] = [];
  if (row.creates) flags.push(row.created ? `creates ${row.created.join(', ')}` : 'creates');
  if (row.egress) flags.push('egress');
  if (row.trust === 'untrusted') flags.push('untrusted');
  if (row.optionalTargets) flags.push('optional');
  if (row.stateOnly) flags.push('state-only');
  if (row.selfVerifying) flags.push('self-verifying');
  if (row.discovers)
    flags.push(
      `discovers ${row.discovers.map((d) => `${d.path === '' ? 'the result' : d.path}${d.prefix ? ` as ${d.prefix}…` : ''}`).join(', ')}`,
    );
  return flags.join(', ') || '-';
}

/**
 * The calls table: one row a call (tool, kind, targets, flags, deciding rule), then a numbered
 * note for each call whose binding its targets do not say.
 */
export function formatCalls(rows: readonly CallClassification[]): string {
  const cells = rows.map((r, i) => [`${i + 1}. ${r.tool}`, r.kind, r.targets?.join(', ') ?? '-', flagsOf(r), r.detail]);
  const header = ['CALL', 'KIND', 'TARGETS', 'FLAGS', 'DECIDED BY'];
  const widths = header.map((h, c) => Math.max(h.length, ...cells.map((row) => row[c]!.length)));
  const table = [header, ...cells].map((row) =>
    row.map((cell, c) => (c === row.length - 1 ? cell : cell.padEnd(widths[c]!))).join('  '),
  );
  const notes = rows.flatMap((r, i) => (r.note ? [`${i + 1}. ${r.tool}: ${r.note}`] : []));
  return [...table, ...(notes.length > 0 ? ['', ...notes] : [])].join('\n');
}
