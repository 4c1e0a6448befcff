import { createClassifier, ClassifierRules, type CallDescriptor, type RulesClassifier } from '../classifier.js';
import type { ToolKind } from '../toolKind.js';
import { classifyShellCommand } from './classifyShellCommand.js';

/** How a coding agent's tool call enters a session: what `beginToolCall` gets besides its id. */
export interface CodingAgentCall {
  tool: string;
  kind: ToolKind;
  /** `file:<absolute path>` for the file tools. */
  targets?: string[];
  /** A write to the agent's own records (its todo list): it needs no verification. */
  stateOnly?: boolean;
  /** Open-world content (web pages, search results). */
  trust?: 'untrusted';
  /** What decided it, in words (for `--explain` output and docs). */
  rule: string;
}

/** Classifies one coding-agent tool call. Never throws: anything unknown or malformed is a write. */
export type CodingAgentClassifier = (toolName: string, input?: unknown) => CodingAgentCall;

/** One built-in tool of the table: its kind and the argument holding the file it touches. */
interface BuiltinTool {
  kind: ToolKind;
  /** The argument naming the file (`file_path`, `notebook_path`): its target is `file:<path>`. */
  path?: string;
  stateOnly?: true;
  trust?: 'untrusted';
}

/**
 * The built-in tools of Claude Code (and the Claude Agent SDK, which runs the same tools), by
 * name. `Bash` is not here: it is judged by its command ({@link classifyShellCommand}).
 */
export const CODING_AGENT_TOOLS: Readonly<Record<string, BuiltinTool>> = {
  Read: { kind: 'read', path: 'file_path' },
  NotebookRead: { kind: 'read', path: 'notebook_path' },
  Grep: { kind: 'read' },
  Glob: { kind: 'read' },
  LS: { kind: 'read' },
  WebFetch: { kind: 'read', trust: 'untrusted' },
  WebSearch: { kind: 'read', trust: 'untrusted' },
  BashOutput: { kind: 'read' },
  ToolSearch: { kind: 'read' },
  ListMcpResourcesTool: { kind: 'read' },
  ReadMcpResourceTool: { kind: 'read' },
  TaskList: { kind: 'read' },
  TaskGet: { kind: 'read' },
  Edit: { kind: 'write', path: 'file_path' },
  MultiEdit: { kind: 'write', path: 'file_path' },
  Write: { kind: 'write', path: 'file_path' },
  NotebookEdit: { kind: 'write', path: 'notebook_path' },
  TodoWrite: { kind: 'write', stateOnly: true },
  TaskCreate: { kind: 'write', stateOnly: true },
  TaskUpdate: { kind: 'write', stateOnly: true },
  AskUserQuestion: { kind: 'user_input' },
  ExitPlanMode: { kind: 'user_input' },
};

/**
 * A path as a target key: absolute (a relative one is taken from `cwd`), `.` and `..` folded,
 * no trailing slash. POSIX and Windows-style separators are both read; the key keeps `/`.
 *
 * @example
 * fileTarget('src/../a.ts', '/repo'); // 'file:/repo/a.ts'
 */
export function fileTarget(path: string, cwd?: string): string {
  let p = path.replace(/\\/g, '/');
  const absolute = p.startsWith('/') || /^[A-Za-z]:\//.test(p);
  if (!absolute && cwd !== undefined) p = `${cwd.replace(/\\/g, '/').replace(/\/+$/, '')}/${p}`;
  const drive = /^[A-Za-z]:/.exec(p)?.[0] ?? '';
  const parts: string[] = [];
  for (const part of p.slice(drive.length).split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return `file:${drive}${p.slice(drive.length).startsWith('/') ? '/' : ''}${parts.join('/')}`;
}

/** An own string property of untrusted input, never a getter or an inherited one. */
function stringField(input: unknown, name: string): string | undefined {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return undefined;
  const desc = Object.getOwnPropertyDescriptor(input, name);
  return desc && 'value' in desc && typeof desc.value === 'string' && desc.value !== '' ? desc.value : undefined;
}

export interface CodingAgentClassifierOptions {
  /**
   * Classifier rules (the `createClassifier` format) that win over the table: a tool named in
   * `rules.tools` gets that kind, and `mcp__<server>__<tool>` tools are classified by these rules
   * (generic verbs, then write).
   */
  rules?: unknown;
  /** Directory relative paths are taken from (the hook's `cwd`). */
  cwd?: string;
}

/**
 * Builds the classifier for coding-agent tools: the file tools with their file as target, reads,
 * the todo list as a state-only write, `Bash` by its command line (a read only when every part is
 * a known read-only command), everything else (MCP tools included) by the rules, then write.
 *
 * @throws {ClassifierRulesError} for malformed rules, naming the path.
 * @example
 * const classify = createCodingAgentClassifier({ rules: { tools: { mcp__db__query: 'read' } } });
 * classify('Edit', { file_path: '/src/app.ts' });    // { kind: 'write', targets: ['file:/src/app.ts'], ... }
 * classify('Bash', { command: 'ls | grep x' }).kind; // 'read'
 * classify('mcp__db__query', {}).kind;               // 'read'
 */
export function createCodingAgentClassifier(options: CodingAgentClassifierOptions = {}): CodingAgentClassifier {
  const rules = options.rules === undefined ? undefined : ClassifierRules.parse(checked(options.rules));
  const byRules: RulesClassifier = createClassifier(rules ?? { tools: {} });
  /** What a rule says of a call: kind, targets, state-only, trust. */
  const described = (tool: string, input: unknown, rule: string, fallbackTargets?: string[]): CodingAgentCall => {
    const d: CallDescriptor = byRules.describe(tool, input);
    const targets = d.targets ?? fallbackTargets;
    return {
      tool,
      kind: d.kind,
      ...(targets && { targets }),
      ...(d.stateOnly && { stateOnly: true }),
      ...(d.trust && { trust: d.trust }),
      rule,
    };
  };
  const ruled = new Set(Object.keys(rules?.tools ?? {}));
  const { cwd } = options;

  const classify = (tool: string, input: unknown): CodingAgentCall => {
    if (typeof tool !== 'string' || tool === '') return { tool: String(tool), kind: 'write', rule: 'no tool name' };
    const builtin = Object.hasOwn(CODING_AGENT_TOOLS, tool) ? CODING_AGENT_TOOLS[tool] : undefined;
    if (ruled.has(tool)) {
      const path = builtin?.path === undefined ? undefined : stringField(input, builtin.path);
      return described(tool, input, 'the rules file', path === undefined ? undefined : [fileTarget(path, cwd)]);
    }
    if (tool === 'Bash') {
      const command = stringField(input, 'command');
      if (command === undefined) return { tool, kind: 'write', rule: 'Bash with no command' };
      const judged = classifyShellCommand(command);
      return { tool, kind: judged.kind, rule: `Bash: ${judged.reason}` };
    }
    if (builtin) {
      const path = builtin.path === undefined ? undefined : stringField(input, builtin.path);
      if (builtin.path !== undefined && path === undefined && builtin.kind === 'write')
        return { tool, kind: 'write', rule: `${tool} with no ${builtin.path}` };
      return {
        tool,
        kind: builtin.kind,
        ...(path !== undefined && { targets: [fileTarget(path, cwd)] }),
        ...(builtin.stateOnly && { stateOnly: true }),
        ...(builtin.trust && { trust: builtin.trust }),
        rule: 'the coding-agent table',
      };
    }
    const call = described(tool, input, '');
    return { ...call, rule: call.kind === 'write' ? 'not in the table or the rules: a write' : 'generic verbs' };
  };
  return (tool, input) => {
    try {
      return classify(tool, input);
    } catch {
      return { tool: String(tool), kind: 'write', rule: 'unreadable input' };
    }
  };
}

/** Validates rules with the core's own errors (a ClassifierRulesError naming the path). */
function checked(rules: unknown): unknown {
  createClassifier(rules);
  return rules;
}

/**
 * The coding-agent classifier with no rules file.
 *
 * @example
 * codingAgentClassifier('TodoWrite', { todos: [] }); // { kind: 'write', stateOnly: true, ... }
 * codingAgentClassifier('Bash', { command: 'rm -rf build && ls' }).kind; // 'write'
 */
export const codingAgentClassifier: CodingAgentClassifier = createCodingAgentClassifier();
