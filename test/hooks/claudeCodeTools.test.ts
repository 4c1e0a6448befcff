import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILTIN_TOOL_NAMES } from '@anthropic-ai/claude-agent-sdk';
import { codingAgentClassifier, createCodingAgentClassifier, CODING_AGENT_TOOLS } from 'assistant-safety/hooks';

/* Every tool Claude Code has is classified by the table, checked against the Claude Agent SDK's own tool list and input types. */

const isDefault = (rule: string) => /not in the table/.test(rule);

/** The SDK's tool input types (sdk-tools.d.ts), by the tool that takes them. */
const INPUT_TYPES: Record<string, string> = {
  AgentInput: 'Agent',
  BashInput: 'Bash',
  ExitPlanModeInput: 'ExitPlanMode',
  FileEditInput: 'Edit',
  FileReadInput: 'Read',
  FileWriteInput: 'Write',
  GlobInput: 'Glob',
  GrepInput: 'Grep',
  TaskStopInput: 'TaskStop',
  ListMcpResourcesInput: 'ListMcpResourcesTool',
  RefreshMcpToolsInput: 'WaitForMcpServers',
  McpInput: 'mcp__server__tool',
  NotebookEditInput: 'NotebookEdit',
  ReadMcpResourceDirInput: 'ReadMcpResourceDirTool',
  ReadMcpResourceInput: 'ReadMcpResourceTool',
  ReportFindingsInput: 'ReportFindings',
  TodoWriteInput: 'TodoWrite',
  WebFetchInput: 'WebFetch',
  WebSearchInput: 'WebSearch',
  AskUserQuestionInput: 'AskUserQuestion',
  SendFeedbackInput: 'SendFeedback',
  ClaudeDesignInput: 'ClaudeDesign',
  ProjectsInput: 'Projects',
  EnterPlanModeInput: 'EnterPlanMode',
  TaskCreateInput: 'TaskCreate',
  TaskGetInput: 'TaskGet',
  TaskUpdateInput: 'TaskUpdate',
  TaskListInput: 'TaskList',
  WorkflowInput: 'Workflow',
  CronCreateInput: 'CronCreate',
  CronDeleteInput: 'CronDelete',
  CronListInput: 'CronList',
  ScheduleWakeupInput: 'ScheduleWakeup',
  RemoteTriggerInput: 'RemoteTrigger',
  ShowOnboardingRolePickerInput: 'ShowOnboardingRolePicker',
  OfferChromeSetupInput: 'OfferChromeSetup',
  ReadNotificationsInput: 'ReadNotifications',
  MonitorInput: 'Monitor',
  ProposeSkillsInput: 'propose_skills',
  ProposeGoalInput: 'SetGoal',
  ArtifactInput: 'Artifact',
  PushNotificationInput: 'PushNotification',
  EnterWorktreeInput: 'EnterWorktree',
  ExitWorktreeInput: 'ExitWorktree',
};

function sdkInputTypes(): string[] {
  const require = createRequire(import.meta.url);
  const root = dirname(require.resolve('@anthropic-ai/claude-agent-sdk'));
  const text = readFileSync(join(root, 'sdk-tools.d.ts'), 'utf8');
  const union = /export type ToolInputSchemas =([^;]*);/.exec(text)![1]!;
  return union
    .split('|')
    .map((s) => s.trim())
    .filter((s) => s !== '' && s !== 'ToolOutputSchemas');
}

describe("Claude Code's tools", () => {
  it.each([...BUILTIN_TOOL_NAMES])('the SDK tool %s is in the table (or judged by its command)', (tool) => {
    const call = codingAgentClassifier(tool, {});
    expect(isDefault(call.rule), `${tool}: ${call.rule}`).toBe(false);
    expect(tool === 'Bash' || Object.hasOwn(CODING_AGENT_TOOLS, tool)).toBe(true);
  });

  it('maps every tool input type the SDK declares to a tool the table knows', () => {
    const types = sdkInputTypes();
    expect(types.length).toBeGreaterThan(20);
    const unmapped = types.filter((t) => !Object.hasOwn(INPUT_TYPES, t));
    expect(unmapped, 'input types with no tool in this test: classify them, then map them here').toEqual([]);
    for (const type of types) {
      const tool = INPUT_TYPES[type]!;
      if (tool.startsWith('mcp__')) continue;
      expect(isDefault(codingAgentClassifier(tool, {}).rule), `${type} → ${tool}`).toBe(false);
    }
  });

  it.each(['Task', 'KillShell', 'BashOutput', 'SlashCommand', 'LS', 'MultiEdit', 'NotebookRead', 'Skill'])(
    'keeps the earlier and other names: %s',
    (tool) => {
      expect(isDefault(codingAgentClassifier(tool, { file_path: '/repo/a.ts' }).rule), tool).toBe(false);
    },
  );

  it.each([
    ['Task', { description: 'explore', prompt: 'find x', subagent_type: 'Explore' }, { kind: 'user_input' }],
    ['Agent', { description: 'fix', prompt: 'fix x', subagent_type: 'general-purpose' }, { kind: 'user_input' }],
    ['Agent', { description: 'fix', prompt: 'fix x', isolation: 'remote' }, { kind: 'write' }],
    ['Skill', { skill: 'pdf' }, { kind: 'read' }],
    ['SlashCommand', { command: '/review' }, { kind: 'read' }],
    ['KillShell', { shell_id: 'b1' }, { kind: 'write', stateOnly: true }],
    ['TaskStop', { task_id: 'b1' }, { kind: 'write', stateOnly: true }],
    ['BashOutput', { bash_id: 'b1' }, { kind: 'read' }],
    ['WebFetch', { url: 'https://x', prompt: 'p' }, { kind: 'read', trust: 'untrusted' }],
    ['WebSearch', { query: 'x' }, { kind: 'read', trust: 'untrusted' }],
    [
      'NotebookEdit',
      { notebook_path: '/repo/n.ipynb', new_source: '' },
      { kind: 'write', targets: ['file:/repo/n.ipynb'] },
    ],
    ['ExitPlanMode', { plan: 'p' }, { kind: 'user_input' }],
    ['TodoWrite', { todos: [] }, { kind: 'write', stateOnly: true }],
    ['Glob', { pattern: '**/*.ts', path: '/repo/src' }, { kind: 'read' }],
    ['Grep', { pattern: 'x', path: '/repo/src/a.ts' }, { kind: 'read', targets: ['file:/repo/src/a.ts'] }],
    ['Grep', { pattern: 'x', path: 'src' }, { kind: 'read', targets: ['file:/repo/src'] }],
    ['LS', { path: '/repo' }, { kind: 'read' }],
    ['MultiEdit', { file_path: '/repo/a.ts', edits: [] }, { kind: 'write', targets: ['file:/repo/a.ts'] }],
    ['Monitor', { description: 'd', timeout_ms: 1000, command: 'tail -f /repo/log.txt' }, { kind: 'read' }],
    ['Monitor', { description: 'd', timeout_ms: 1000, command: 'rm -rf x' }, { kind: 'write' }],
    ['Artifact', { action: 'list' }, { kind: 'read' }],
    ['Artifact', { file_path: '/repo/a.html' }, { kind: 'write' }],
    ['Projects', { method: 'project_read', path: 'x' }, { kind: 'read' }],
    ['Projects', { method: 'project_delete', path: 'x' }, { kind: 'write' }],
    ['PowerShell', { command: 'Get-ChildItem' }, { kind: 'write' }],
  ])('%s %j', (tool, input, expected) => {
    const classify = createCodingAgentClassifier({ cwd: '/repo' });
    expect(classify(tool, input)).toMatchObject(expected);
  });

  it('leaves Glob and LS without targets: a list of names is not the files', () => {
    expect(codingAgentClassifier('Glob', { pattern: '*.ts', path: '/repo' }).targets).toBeUndefined();
    expect(codingAgentClassifier('LS', { path: '/repo' }).targets).toBeUndefined();
  });
});

describe('MCP tools through their annotations', () => {
  const classify = createCodingAgentClassifier({
    rules: { tools: { mcp__db__drop: 'read' } },
    mcpTools: {
      tools: [
        { name: 'mcp__db__query', annotations: { readOnlyHint: true } },
        { name: 'mcp__web__fetch', annotations: { readOnlyHint: true, openWorldHint: true } },
        { name: 'mcp__db__drop', annotations: { readOnlyHint: false, destructiveHint: true } },
        { name: 'mcp__db__insert', annotations: { destructiveHint: false } },
      ],
    },
  });

  it('reads a readOnlyHint tool, untrusted when open-world; anything else writes; the rules file wins', () => {
    expect(classify('mcp__db__query', {})).toMatchObject({ kind: 'read', rule: expect.stringMatching(/readOnlyHint/) });
    expect(classify('mcp__web__fetch', {})).toMatchObject({ kind: 'read', trust: 'untrusted' });
    expect(classify('mcp__db__insert', {}).kind).toBe('write');
    expect(classify('mcp__db__drop', {})).toMatchObject({ kind: 'read', rule: 'the rules file' });
    expect(classify('mcp__other__thing', {}).kind).toBe('write');
  });
});
