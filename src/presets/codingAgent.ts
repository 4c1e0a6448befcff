import {
  createClassifier,
  ClassifierRules,
  ClassifierRulesError,
  type CallDescriptor,
  type RulesClassifier,
} from '../harness/classifier.js';
import type { ToolKind } from '../safety/toolKind.js';
import type { SafetySession, SafetySessionOptions, ToolCallStart } from '../safety/SafetySessionTypes.js';
import { classifyShellCommand } from './classifyShellCommand.js';
import { fileTarget } from './fileTarget.js';
import { ShellRules } from './ShellRules.js';
import { classifyFromTools } from '../classify/classifyFromTools.js';
import { issuesOf, safeParseInput } from '../core/Issue.js';
import { keysOf, refuseUnknownOptions } from '../core/knownKeys.js';
import { callStartOf } from '../harness/loop/callFacts.js';

export { fileTarget };

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
  /**
   * A project-wide check (a test run, a type check, a build, a linter, `git diff`/`git status`):
   * evidence for every file edited before it began.
   */
  check?: true;
  /** A subagent (`Task`, `Agent`): under the coding profile its end makes every file need a read again. */
  delegates?: true;
  /** A write that creates what it acts on, the keys it creates, a read that sends data out (rules file). */
  creates?: true;
  created?: string[];
  egress?: true;
  /** Neither the table nor the rules know the tool: it is a write by default (block sentences say so). */
  undeclared?: true;
  /** What decided it, in words (for `--explain` output and docs). */
  rule: string;
}

/**
 * Classifies one coding-agent tool call. Never throws: anything unknown or malformed is a write.
 * `discover` reads a tool's result (`tool_response`) by the rules file's `discovers` fields.
 */
export interface CodingAgentClassifier {
  (toolName: string, input?: unknown): CodingAgentCall;
  discover?(toolName: string, response: unknown, input?: unknown): { target: string; field: string }[];
}

/** One built-in tool of the table: its kind and the argument holding the file it touches. */
interface BuiltinTool {
  kind: ToolKind;
  /** The argument naming the file (`file_path`, `notebook_path`): its target is `file:<path>`. */
  path?: string;
  stateOnly?: true;
  trust?: 'untrusted';
  /** A read when this argument has one of these values; the tool's `kind` otherwise. */
  readsWhen?: { arg: string; values: readonly string[] };
  /** The argument holding a shell command line, judged like `Bash`. */
  shell?: string;
  /** Why, when the choice is not obvious (shown as the call's `rule`). */
  note?: string;
}

const SUBAGENTS = new Set(['Task', 'Agent', 'Workflow']);
/**
 * Claude Code's built-in subagent types that have no editing tools (Edit, Write, NotebookEdit):
 * their end leaves every file as it was read. A shell command they run comes through the hooks as a
 * call of its own, and one that changes a file is gated and tracked there like any other.
 */
const READ_ONLY_SUBAGENTS = new Set(['Explore', 'Plan']);
const SUBAGENT =
  'a subagent: its own tool calls reach the hooks one by one and are gated there, so the call itself is neither evidence nor a write (user_input); under the coding profile its end makes every file need a read again before an edit, as it may have changed any';

/**
 * The built-in tools of Claude Code (and the Claude Agent SDK, which runs the same tools), by
 * name, today's and earlier names alike. `Bash` is not here: it is judged by its command
 * ({@link classifyShellCommand}).
 *
 * Decisions worth knowing: `Task`/`Agent`/`Workflow` (subagents) are `user_input`, the one kind
 * that neither counts as evidence nor blocks: a subagent's own reads and edits come through the
 * hooks as calls of their own (with the subagent's id) and are gated there; as a `read` the
 * call would verify edits nobody checked, as a `write` it would hold the write slot for the
 * subagent's whole run and refuse its edits. Its end makes every file need a read again, unless it is of a
 * type with no editing tools (`Explore`, `Plan`). One sent to run remotely (`isolation: "remote"`)
 * acts where no hook sees it: a write. `Skill` and `SlashCommand` only bring instructions into
 * the conversation (the project's own commands): reads. `KillShell`/`TaskStop` stop the agent's
 * own background work: state-only writes.
 */
export const CODING_AGENT_TOOLS: Readonly<Record<string, BuiltinTool>> = {
  Read: { kind: 'read', path: 'file_path' },
  NotebookRead: { kind: 'read', path: 'notebook_path' },
  Grep: { kind: 'read', path: 'path', note: 'a search: its path (file or folder) is the target' },
  Glob: { kind: 'read', note: 'lists names, reads no content' },
  LS: { kind: 'read', note: 'lists names, reads no content' },
  LSP: { kind: 'read', note: 'language-server queries' },
  WebFetch: { kind: 'read', trust: 'untrusted' },
  WebSearch: { kind: 'read', trust: 'untrusted' },
  BashOutput: { kind: 'read', note: "a background shell's output" },
  ToolSearch: { kind: 'read' },
  ListMcpResourcesTool: { kind: 'read' },
  ReadMcpResourceTool: { kind: 'read' },
  ReadMcpResourceDirTool: { kind: 'read' },
  WaitForMcpServers: { kind: 'read' },
  TaskList: { kind: 'read' },
  TaskGet: { kind: 'read' },
  CronList: { kind: 'read' },
  ListAgents: { kind: 'read' },
  ReadNotifications: { kind: 'read' },
  EnterPlanMode: { kind: 'read', note: 'plan mode only narrows what the agent may do' },
  Skill: { kind: 'read', note: "loads a skill's instructions; what it then does comes through its own tool calls" },
  SlashCommand: { kind: 'read', note: "expands one of the project's own commands into instructions" },
  Edit: { kind: 'write', path: 'file_path' },
  MultiEdit: { kind: 'write', path: 'file_path' },
  Write: { kind: 'write', path: 'file_path' },
  NotebookEdit: { kind: 'write', path: 'notebook_path' },
  TodoWrite: { kind: 'write', stateOnly: true },
  TaskCreate: { kind: 'write', stateOnly: true },
  TaskUpdate: { kind: 'write', stateOnly: true },
  SetGoal: { kind: 'write', stateOnly: true },
  ReportFindings: { kind: 'write', stateOnly: true },
  ScheduleWakeup: { kind: 'write', stateOnly: true },
  SubagentHandback: { kind: 'write', stateOnly: true },
  EndConversation: { kind: 'write', stateOnly: true },
  KillShell: { kind: 'write', stateOnly: true, note: "stops the agent's own background shell" },
  TaskStop: { kind: 'write', stateOnly: true, note: "stops the agent's own background task" },
  SendUserMessage: { kind: 'write', stateOnly: true, note: 'a message to the person' },
  SendUserFile: { kind: 'write', stateOnly: true, note: 'a file shown to the person' },
  PushNotification: { kind: 'write', stateOnly: true, note: 'a notification to the person' },
  AskUserQuestion: { kind: 'user_input' },
  ExitPlanMode: { kind: 'user_input' },
  ShowOnboardingRolePicker: { kind: 'user_input' },
  OfferChromeSetup: { kind: 'user_input' },
  ShareOnboardingGuide: { kind: 'user_input' },
  propose_skills: { kind: 'user_input' },
  Task: { kind: 'user_input', note: SUBAGENT },
  Agent: { kind: 'user_input', note: SUBAGENT },
  Workflow: { kind: 'user_input', note: SUBAGENT },
  Monitor: { kind: 'write', shell: 'command', note: 'watches a command: judged by its command line' },
  Artifact: {
    kind: 'write',
    readsWhen: { arg: 'action', values: ['list', 'read', 'list_types', 'status', 'list_assets'] },
    note: 'publishes (a write) unless its action only lists or reads',
  },
  ClaudeDesign: { kind: 'write', readsWhen: { arg: 'operation', values: ['list'] } },
  Projects: {
    kind: 'write',
    readsWhen: {
      arg: 'method',
      values: ['project_info', 'project_read', 'project_search', 'project_memory_list', 'project_memory_read'],
    },
  },
  SendMessage: { kind: 'write', note: 'a message to another agent: it may act on it' },
  SendFeedback: { kind: 'write', note: 'sends data out' },
  RemoteTrigger: { kind: 'write' },
  CronCreate: { kind: 'write', note: 'schedules work that will act later' },
  CronDelete: { kind: 'write' },
  EnterWorktree: { kind: 'write', note: 'creates a git worktree' },
  ExitWorktree: { kind: 'write', note: 'may remove a git worktree' },
  PowerShell: { kind: 'write', note: 'PowerShell command lines are not parsed: a write' },
};

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
  /**
   * MCP tools as their servers declare them (the `tools/list` shape, names written as the agent
   * calls them: `mcp__<server>__<tool>`): `readOnlyHint: true` makes a read (`openWorldHint:
   * true` an untrusted one), anything else a write. The rules file wins over them.
   */
  mcpTools?: unknown;
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
  refuseUnknownOptions(
    'createCodingAgentClassifier',
    options,
    keysOf<CodingAgentClassifierOptions>({ rules: true, cwd: true, mcpTools: true }),
  );
  const { classifier: classifierRules, shell } = splitRules(options.rules);
  const rules = classifierRules === undefined ? undefined : ClassifierRules.parse(checked(classifierRules));
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
      ...(d.creates && { creates: true }),
      ...(d.created && { created: d.created }),
      ...(d.egress && { egress: true }),
      rule,
    };
  };
  const ruled = new Set(Object.keys(rules?.tools ?? {}));
  const declared = options.mcpTools === undefined ? undefined : classifyFromTools(options.mcpTools);
  const { cwd } = options;

  const shellCall = (tool: string, command: string | undefined): CodingAgentCall => {
    if (command === undefined) return { tool, kind: 'write', rule: `${tool} with no command` };
    const judged = classifyShellCommand(command, { ...(cwd !== undefined && { cwd }), ...(shell && { rules: shell }) });
    return {
      tool,
      kind: judged.kind,
      ...(judged.targets?.length && { targets: judged.targets }),
      ...(judged.check && { check: true }),
      ...(judged.stateOnly && { stateOnly: true }),
      rule: `${tool}: ${judged.reason}`,
    };
  };

  const classify = (tool: string, input: unknown): CodingAgentCall => {
    if (typeof tool !== 'string' || tool === '') return { tool: String(tool), kind: 'write', rule: 'no tool name' };
    const builtin = Object.hasOwn(CODING_AGENT_TOOLS, tool) ? CODING_AGENT_TOOLS[tool] : undefined;
    if (ruled.has(tool)) {
      const path = builtin?.path === undefined ? undefined : stringField(input, builtin.path);
      return described(tool, input, 'the rules file', path === undefined ? undefined : [fileTarget(path, cwd)]);
    }
    if (tool === 'Bash') return shellCall(tool, stringField(input, 'command'));
    if (builtin) {
      if (builtin.shell !== undefined) return shellCall(tool, stringField(input, builtin.shell));
      if (SUBAGENTS.has(tool) && stringField(input, 'isolation') === 'remote')
        return { tool, kind: 'write', rule: `${tool}: a subagent run remotely acts where no hook sees it` };
      const path = builtin.path === undefined ? undefined : stringField(input, builtin.path);
      if (builtin.path !== undefined && path === undefined && builtin.kind === 'write')
        return { tool, kind: 'write', rule: `${tool} with no ${builtin.path}` };
      const readsWhen = builtin.readsWhen;
      const kind =
        readsWhen && readsWhen.values.includes(stringField(input, readsWhen.arg) ?? '\0') ? 'read' : builtin.kind;
      return {
        tool,
        kind,
        ...(path !== undefined && { targets: [fileTarget(path, cwd)] }),
        ...(builtin.stateOnly && { stateOnly: true }),
        ...(builtin.trust && { trust: builtin.trust }),
        ...(SUBAGENTS.has(tool) &&
          !READ_ONLY_SUBAGENTS.has(stringField(input, 'subagent_type') ?? '') && { delegates: true }),
        rule: `the coding-agent table${builtin.note === undefined ? '' : `: ${builtin.note}`}`,
      };
    }
    if (declared?.tools.has(tool)) {
      const { kind, trust, detail } = declared.explain(tool, input);
      return { tool, kind, ...(trust === 'untrusted' && { trust }), rule: `the MCP tool list: ${detail}` };
    }
    const call = described(tool, input, '');
    return call.kind === 'write'
      ? { ...call, undeclared: true, rule: 'not in the table or the rules: a write' }
      : { ...call, rule: 'generic verbs' };
  };
  const classifier: CodingAgentClassifier = (tool, input) => {
    try {
      return classify(tool, input);
    } catch {
      return { tool: String(tool), kind: 'write', rule: 'unreadable input' };
    }
  };
  // Only tools the rules file names reveal anything (a built-in tool's output is the project's files).
  classifier.discover = (tool, response, input) => (ruled.has(tool) ? byRules.discover(tool, response, input) : []);
  return classifier;
}

/**
 * A coding-agent rules file is the `createClassifier` format plus an optional `shell` section
 * ({@link ShellRules}): the two are validated apart, each naming the path of what is wrong.
 */
function splitRules(rules: unknown): { classifier?: unknown; shell?: ShellRules } {
  if (typeof rules !== 'object' || rules === null || Array.isArray(rules) || !Object.hasOwn(rules, 'shell'))
    return { classifier: rules };
  const { shell, ...classifier } = rules as Record<string, unknown>;
  const parsed = safeParseInput(ShellRules, shell);
  if (!parsed.success)
    throw new ClassifierRulesError(issuesOf(parsed.error).map((i) => ({ ...i, path: ['shell', ...i.path] })));
  return { classifier, shell: parsed.data };
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
 * codingAgentClassifier('Bash', { command: 'rm -rf src/legacy && ls' }).kind; // 'write'
 */
export const codingAgentClassifier: CodingAgentClassifier = createCodingAgentClassifier();

/**
 * A classified coding-agent call as the session begins it (`beginToolCall`): what every coding-agent
 * hook passes, whatever the agent.
 *
 * @example
 * codingCallStart('t1', codingAgentClassifier('Read', { file_path: '/repo/a.ts' }));
 * // { id: 't1', kind: 'read', tool: 'Read', targets: ['file:/repo/a.ts'] }
 */
export function codingCallStart(id: string, call: CodingAgentCall): ToolCallStart {
  return callStartOf(id, call.kind, call.tool, call);
}

/**
 * The session every coding-agent hook judges with unless told otherwise (`--profile`, `--targets`):
 * the coding profile (the file is the unit of evidence) and writes bound to the files read or found.
 * The audit of a coding agent's transcript uses the same, so it tells what the hook would have done.
 */
export const CODING_AGENT_SESSION = {
  profile: 'coding',
  targets: 'bind',
} as const satisfies Pick<SafetySessionOptions, 'profile' | 'targets'>;

/**
 * A `Write` that creates its file establishes the file as a target before the call begins: a new
 * file cannot be read first (the write must still be verified by a read). `isNew` is asked only
 * when the file is not a validated target yet (the hook looks at the disk, the audit at the result).
 *
 * @example
 * establishCreatedFile(session, codingAgentClassifier('Write', { file_path: '/repo/new.ts' }), () => true);
 */
export function establishCreatedFile(
  session: SafetySession,
  call: Pick<CodingAgentCall, 'tool' | 'targets'>,
  isNew: () => boolean,
): void {
  if (
    call.tool === 'Write' &&
    call.targets &&
    call.targets.length > 0 &&
    !call.targets.every((t) => session.validatedTargets.includes(t)) &&
    isNew()
  )
    session.targetEstablished({ targets: call.targets, source: 'tool' });
}
