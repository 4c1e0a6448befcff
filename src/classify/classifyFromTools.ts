import * as z from 'zod/mini';
import { ClassifierRules, createClassifier, type CallDescriptor, type ToolClassifier } from '../harness/classifier.js';
import type { DiscoveredTarget } from '../harness/discoveredTargets.js';
import { ToolKind } from '../safety/toolKind.js';
import { formatIssues, issuesOf, safeParseInput, type Issue } from '../core/Issue.js';

/*
 * A classifier built from what tools already declare: MCP annotations, a
 * `kind` on a tool object, and (opt-in) a verb at the start of the name.
 * Explicit rules always win; anything undeclared falls back to the core
 * classifier (generic verbs in `action`/`operation`, then write).
 */

/**
 * MCP tool annotations (the `annotations` of a `tools/list` entry). Only a
 * literal `readOnlyHint: true` makes a read: any other value, or none, is a
 * write (MCP's own default for `readOnlyHint` is false). `destructiveHint`
 * does not change the kind (a non-destructive write is still a write); it
 * is shown in the explanation.
 */
export const ToolAnnotations = z.looseObject({
  title: z.optional(z.unknown()),
  readOnlyHint: z.optional(z.unknown()),
  destructiveHint: z.optional(z.unknown()),
  idempotentHint: z.optional(z.unknown()),
  openWorldHint: z.optional(z.unknown()),
});
export type ToolAnnotations = z.infer<typeof ToolAnnotations>;

/**
 * One tool as a tool list declares it: an MCP `tools/list` entry (`name`,
 * `annotations`), or any tool object carrying a `kind` (e.g. one wrapped for
 * the AI SDK or the OpenAI Agents SDK). Other fields (schemas, descriptions)
 * are kept and ignored.
 */
export const ToolDeclaration = z.looseObject({
  name: z.string().check(z.minLength(1, 'expected a non-empty string')),
  kind: z.optional(ToolKind),
  annotations: z.optional(ToolAnnotations),
});
export type ToolDeclaration = z.infer<typeof ToolDeclaration>;

/** A tool list in the MCP `tools/list` result shape: `{ "tools": [{ "name", "annotations"? }] }`. */
export const ToolList = z.looseObject({
  tools: z.array(ToolDeclaration).check(
    z.superRefine((tools, ctx) => {
      const first = new Map<string, number>();
      tools.forEach((tool, i) => {
        const earlier = first.get(tool.name);
        if (earlier === undefined) first.set(tool.name, i);
        else ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `repeats the name of tools[${earlier}]` });
      });
    }),
  ),
});
export type ToolList = z.infer<typeof ToolList>;

/** Read verbs of the opt-in name-verb preset: a name starting with one (`get_user`, `listUsers`) is a read. */
export const NAME_READ_VERBS = [
  'get',
  'list',
  'read',
  'search',
  'describe',
  'find',
  'query',
  'show',
  'fetch',
  'lookup',
  'inspect',
  'view',
  'count',
  'check',
  'status',
] as const;

/** Words that make a name a write whatever it starts with (`get_and_delete_user`, `read_then_update`). */
export const NAME_WRITE_VERBS = [
  'add',
  'append',
  'apply',
  'approve',
  'archive',
  'cancel',
  'clear',
  'close',
  'create',
  'delete',
  'deploy',
  'destroy',
  'disable',
  'dismiss',
  'drop',
  'edit',
  'enable',
  'execute',
  'exec',
  'insert',
  'kill',
  'merge',
  'modify',
  'move',
  'patch',
  'post',
  'purge',
  'push',
  'put',
  'reboot',
  'remove',
  'rename',
  'replace',
  'reset',
  'resolve',
  'restart',
  'revoke',
  'run',
  'save',
  'send',
  'set',
  'shutdown',
  'start',
  'stop',
  'submit',
  'terminate',
  'trigger',
  'truncate',
  'update',
  'upload',
  'upsert',
  'write',
] as const;

/** The name-verb preset's verbs, when the defaults do not fit. */
export const NameVerbs = z.strictObject({
  read: z.array(z.string().check(z.minLength(1))),
  write: z.array(z.string().check(z.minLength(1))),
});
export type NameVerbs = z.infer<typeof NameVerbs>;

/** What {@link classifyFromTools} accepts besides the tools. */
export const ClassifyFromToolsOptions = z.strictObject({
  /** Classifier rules (the `createClassifier` format). A tool named in `rules.tools` is decided by its rule, always. */
  rules: z.optional(z.unknown()),
  /**
   * Opt in to the name-verb heuristic for tools that declare nothing: `true`
   * for {@link NAME_READ_VERBS} / {@link NAME_WRITE_VERBS}, or your own lists.
   * Off by default: a name is a promise nobody checks (see docs/classification.md).
   */
  nameVerbs: z.optional(z.union([z.boolean(), NameVerbs])),
});
export type ClassifyFromToolsOptions = z.input<typeof ClassifyFromToolsOptions>;

/** Which rule decided a tool's kind. */
export type ClassificationRule = 'rules' | 'kind' | 'annotations' | 'name-verb' | 'verbs' | 'default';

/** A decision and what made it, with everything the gate takes of a call (targets, trust, state-only). */
export interface Classification extends CallDescriptor {
  tool: string;
  kind: ToolKind;
  /** The deciding rule, in order of precedence: `rules`, `kind`, `annotations`, `name-verb`, `verbs`, `default`. */
  rule: ClassificationRule;
  /** One sentence: which rule, which value (`rules: tools.vm.action = "status"`, `annotations: readOnlyHint true`). */
  detail: string;
}

/**
 * A classifier that can say why: call it like any `ToolClassifier`, `describe` a call for the gate,
 * `explain` a decision, or `discover` what a result revealed.
 */
export interface ExplainingClassifier extends ToolClassifier {
  explain(toolName: string, args?: unknown): Classification;
  describe(toolName: string, args?: unknown): CallDescriptor;
  /** The targets a result reveals by the tool's rule's `discovers` (see `discoveredTargets`); empty without one. */
  discover(toolName: string, result: unknown, args?: unknown): DiscoveredTarget[];
  /** The declared tools, by name. */
  readonly tools: ReadonlyMap<string, ToolDeclaration>;
}

/** Thrown for a tool list or options that cannot be used; each issue names its path (`tools[2].kind`). */
export class ToolDeclarationError extends Error {
  readonly code = 'INVALID_TOOLS' as const;
  constructor(readonly issues: Issue[]) {
    super(`invalid tool list: ${formatIssues(issues)}`);
    this.name = 'ToolDeclarationError';
  }
}

const issuesAt = (root: (string | number)[], error: z.core.$ZodError): Issue[] =>
  issuesOf(error).map((i) => ({ ...i, path: [...root, ...i.path] }));

/** Splits a tool name into lower-case words: `get_and_delete`, `getAndDelete`, `get-user.v2` alike. */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
}

function toDeclarations(tools: unknown): ToolDeclaration[] {
  // The MCP result shape, an array of declarations, or an object keyed by name (the AI SDK's `tools`).
  if (Array.isArray(tools)) {
    const parsed = safeParseInput(ToolList.shape.tools, tools);
    if (!parsed.success) throw new ToolDeclarationError(issuesAt(['tools'], parsed.error));
    return parsed.data;
  }
  if (typeof tools === 'object' && tools !== null && Array.isArray((tools as { tools?: unknown }).tools)) {
    const parsed = safeParseInput(ToolList, tools);
    if (!parsed.success) throw new ToolDeclarationError(issuesAt([], parsed.error));
    return parsed.data.tools;
  }
  if (typeof tools === 'object' && tools !== null) {
    const list = Object.entries(tools).map(([name, tool]) =>
      typeof tool === 'object' && tool !== null ? { ...tool, name } : tool,
    );
    const parsed = safeParseInput(z.array(ToolDeclaration), list);
    if (!parsed.success) {
      const names = Object.keys(tools);
      throw new ToolDeclarationError(
        issuesOf(parsed.error).map((i) => {
          const [index, ...rest] = i.path;
          return { ...i, path: [names[index as number] ?? String(index), ...rest] };
        }),
      );
    }
    return parsed.data;
  }
  throw new ToolDeclarationError([
    {
      code: 'invalid_type',
      path: [],
      message: 'expected { tools: [...] }, an array of tools, or an object of tools by name',
    },
  ]);
}

/**
 * Builds a classifier from the tools' own declarations. For each call, the
 * first of these that applies decides:
 *
 * 1. `rules`: the tool is named in `rules.tools` (the `createClassifier` format).
 * 2. `kind`: the tool object carries a `kind`.
 * 3. `annotations`: the tool has MCP annotations: `readOnlyHint: true` is a
 *    read, anything else a write.
 * 4. `name-verb` (opt-in, `nameVerbs`): the name contains a write word
 *    (`get_and_delete`) → write; it starts with a read verb → read.
 * 5. `verbs`: a generic read verb in `action`/`operation` (the core classifier).
 * 6. `default`: write (fail closed).
 *
 * @throws {ToolDeclarationError} for a malformed tool list, naming the path.
 * @throws {ClassifierRulesError} for malformed rules, naming the path.
 * @example
 * const classify = classifyFromTools(
 *   { tools: [{ name: 'read_file', annotations: { readOnlyHint: true } }, { name: 'write_file' }] },
 *   { rules: { tools: { list_allowed_directories: 'resolve' } } },
 * );
 * classify('read_file');                   // 'read'
 * classify('write_file');                  // 'write'
 * classify.explain('read_file').detail;    // 'annotations: readOnlyHint true'
 */
export function classifyFromTools(tools: unknown, options: ClassifyFromToolsOptions = {}): ExplainingClassifier {
  const parsedOptions = safeParseInput(ClassifyFromToolsOptions, options);
  if (!parsedOptions.success) throw new ToolDeclarationError(issuesAt(['options'], parsedOptions.error));
  const { rules = { tools: {} }, nameVerbs } = parsedOptions.data;
  const ruled = createClassifier(rules); // validates the rules: ClassifierRulesError, naming the path
  const ruleTable = new Map(Object.entries(ClassifierRules.parse(rules).tools));
  const declared = new Map<string, ToolDeclaration>();
  for (const tool of toDeclarations(tools)) declared.set(tool.name, tool);
  const verbs = nameVerbs === true ? { read: NAME_READ_VERBS, write: NAME_WRITE_VERBS } : nameVerbs || undefined;
  const readVerbs = new Set(verbs?.read.map((v) => v.toLowerCase()));
  const writeVerbs = new Set(verbs?.write.map((v) => v.toLowerCase()));

  const explain = (toolName: string, args?: unknown): Classification => {
    if (typeof toolName !== 'string')
      return { tool: String(toolName), kind: 'write', rule: 'default', detail: 'default: write' };
    const rule = ruleTable.get(toolName);
    if (rule !== undefined) {
      const { rule: _rule, detail, ...described } = ruled.explain(toolName, args);
      if (typeof rule === 'string' || !('arg' in rule)) return { ...described, rule: 'rules', detail };
      const values = Object.entries(rule.values)
        .map(([v, k]) => `${v}: ${k}`)
        .join(', ');
      const given = args === undefined ? 'not given' : `the call's "${rule.arg}"`;
      const head = `rules: tools.${toolName} by argument "${rule.arg}"`;
      // What the rules classifier found (targets, creates, egress, discovers) follows its head.
      const found = detail.startsWith(head) ? detail.slice(head.length) : '';
      return {
        ...described,
        rule: 'rules',
        detail: `${head} (${values}; other: ${rule.default}; missing: ${rule.missing ?? 'write'}), ${given}${found}`,
      };
    }
    const tool = declared.get(toolName);
    if (tool?.kind !== undefined)
      return { tool: toolName, kind: tool.kind, rule: 'kind', detail: `kind: ${tool.kind}` };
    if (tool?.annotations !== undefined) {
      const { readOnlyHint, destructiveHint } = tool.annotations;
      // Open-world output (the web, mail, chat) reveals nothing a write may trust: see docs/targets.md.
      const openWorld = (tool.annotations as { openWorldHint?: unknown }).openWorldHint === true;
      if (readOnlyHint === true)
        return {
          tool: toolName,
          kind: 'read',
          rule: 'annotations',
          detail: `annotations: readOnlyHint true${openWorld ? ', openWorldHint true (untrusted)' : ''}`,
          ...(openWorld && { trust: 'untrusted' as const }),
        };
      const hint = readOnlyHint === undefined ? 'readOnlyHint absent' : `readOnlyHint ${JSON.stringify(readOnlyHint)}`;
      const destructive = destructiveHint === undefined ? '' : `, destructiveHint ${JSON.stringify(destructiveHint)}`;
      return { tool: toolName, kind: 'write', rule: 'annotations', detail: `annotations: ${hint}${destructive}` };
    }
    if (verbs) {
      const words = nameWords(toolName);
      const writeWord = words.find((w) => writeVerbs.has(w));
      if (writeWord !== undefined)
        return {
          tool: toolName,
          kind: 'write',
          rule: 'name-verb',
          detail: `name-verb: "${writeWord}" is a write word`,
        };
      if (words[0] !== undefined && readVerbs.has(words[0]))
        return { tool: toolName, kind: 'read', rule: 'name-verb', detail: `name-verb: starts with "${words[0]}"` };
    }
    const kind = ruled(toolName, args);
    return kind === 'write'
      ? { tool: toolName, kind, rule: 'default', detail: 'default: nothing declares it, so write (fail closed)' }
      : { tool: toolName, kind, rule: 'verbs', detail: `verbs: a generic ${kind} verb in the call's arguments` };
  };

  const describe = (toolName: string, args?: unknown): CallDescriptor => {
    const { tool: _tool, rule: _rule, detail: _detail, ...descriptor } = explain(toolName, args);
    return descriptor;
  };
  const classify = ((toolName: string, args?: unknown) => explain(toolName, args).kind) as ExplainingClassifier;
  const discover = (toolName: string, result: unknown, args?: unknown): DiscoveredTarget[] =>
    ruled.discover(toolName, result, args);
  Object.defineProperties(classify, {
    explain: { value: explain },
    describe: { value: describe },
    discover: { value: discover },
    tools: { value: declared },
  });
  return classify;
}
