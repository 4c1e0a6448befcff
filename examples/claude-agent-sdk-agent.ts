/*
 * A Claude Agent SDK agent with the gate: guardHooks gives the SDK its hooks and canUseTool,
 * and a call the gate escalates is put to the person in the terminal (node:readline).
 *
 *   npx tsx examples/claude-agent-sdk-agent.ts "Set the port to 8080 in src/config.ts"
 *   npx tsx examples/claude-agent-sdk-agent.ts --offline
 *
 * The first runs Claude Code through the SDK (`query`), with its credentials. `--offline` needs
 * neither: it sends the hooks the events Claude Code would send for a careless edit (typed with
 * the SDK's own hook input types), so the gate's answers and the question show without a model.
 */
import { createInterface } from 'node:readline/promises';
import { exampleArgs } from './exampleArgs.js';
import {
  query,
  type HookCallbackMatcher,
  type HookEvent,
  type HookInput,
  type SyncHookJSONOutput,
} from '@anthropic-ai/claude-agent-sdk';
import { createSafetySession } from 'assistant-safety';
import { guardHooks, type EscalatedCall } from 'assistant-safety/claude-agent-sdk';

/**
 * Asks the person in the terminal; only "y" or "yes" approves. A stdin that ends with no answer
 * (not a terminal: /dev/null, an empty pipe) is a "no": the question would otherwise never settle.
 */
async function approveInTerminal({ reason }: EscalatedCall): Promise<boolean> {
  const terminal = createInterface({ input: process.stdin, output: process.stdout });
  // At its end, stdin's last line with no newline comes as a 'line' event, not as the answer.
  const ended = new Promise<string | undefined>((resolve) => {
    terminal.once('line', resolve);
    terminal.once('close', () => resolve(undefined));
  });
  try {
    const answer = await Promise.race([terminal.question(`${reason.replace(/ \[[A-Z_]+\]$/, '')} [y/N] `), ended]);
    if (answer === undefined) {
      console.log('\nno answer: stdin ended before one was typed, so the call is refused (taken as no)');
      return false;
    }
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    terminal.close();
  }
}

const { values, positionals } = exampleArgs('claude-agent-sdk-agent', {
  allowPositionals: true,
  options: { offline: { type: 'boolean' } },
});
const { hooks, canUseTool } = guardHooks({
  session: createSafetySession({ targets: 'bind', profile: 'detection' }),
  escalate: ['NO_VALIDATED_TARGET', 'TARGET_NOT_VALIDATED'],
  approve: approveInTerminal,
});

if (!values.offline) {
  const prompt = positionals.join(' ') || 'Set the port to 8080 in src/config.ts';
  // Edits the gate allows are not asked about again by Claude Code's own permission prompts.
  for await (const message of query({ prompt, options: { hooks, canUseTool, permissionMode: 'acceptEdits' } })) {
    if (message.type === 'result') console.log(`result: ${message.subtype}`);
  }
} else {
  const cwd = process.cwd();
  const file = `${cwd}/src/config.ts`;
  const base = { session_id: 'offline', transcript_path: '', cwd, permission_mode: 'default' };
  const fire = async (input: HookInput): Promise<SyncHookJSONOutput> => {
    const [matcher] = (hooks[input.hook_event_name as HookEvent] ?? []) as HookCallbackMatcher[];
    const signal = new AbortController().signal;
    return (await matcher!.hooks[0]!(input, 'tool_use_id' in input ? input.tool_use_id : undefined, {
      signal,
    })) as SyncHookJSONOutput;
  };
  const edit = { file_path: file, old_string: 'port: 80', new_string: 'port: 8080' };

  // The model edits a file it never read: the gate asks the person.
  const pre = await fire({
    ...base,
    hook_event_name: 'PreToolUse',
    tool_name: 'Edit',
    tool_input: edit,
    tool_use_id: 'e1',
  });
  console.log(
    `PreToolUse Edit: ${pre.hookSpecificOutput?.hookEventName === 'PreToolUse' ? pre.hookSpecificOutput.permissionDecision : 'allow'}`,
  );
  const signal = new AbortController().signal;
  const answer = await canUseTool('Edit', edit, { signal, toolUseID: 'e1', requestId: 'q1' });
  console.log(`the person: ${answer?.behavior}`);
  if (answer?.behavior === 'allow') {
    await fire({
      ...base,
      hook_event_name: 'PostToolUse',
      tool_name: 'Edit',
      tool_input: edit,
      tool_response: {},
      tool_use_id: 'e1',
    });
    // It then stops without looking at the result: sent back once.
    const stop = await fire({ ...base, hook_event_name: 'Stop', stop_hook_active: false });
    console.log(`Stop: ${stop.decision ?? 'allowed'}: ${stop.reason ?? ''}`);
    const read = { file_path: file };
    await fire({ ...base, hook_event_name: 'PreToolUse', tool_name: 'Read', tool_input: read, tool_use_id: 'r1' });
    await fire({
      ...base,
      hook_event_name: 'PostToolUse',
      tool_name: 'Read',
      tool_input: read,
      tool_response: {},
      tool_use_id: 'r1',
    });
    const again = await fire({ ...base, hook_event_name: 'Stop', stop_hook_active: false });
    console.log(`Stop after reading the file: ${again.decision ?? 'allowed'}`);
  }
}
