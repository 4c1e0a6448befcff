import type {
  HookInput,
  PostToolUseFailureHookInput,
  PostToolUseHookInput,
  PreToolUseHookInput,
  StopHookInput,
  SyncHookJSONOutput,
} from '@anthropic-ai/claude-agent-sdk';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { createSafetySession } from 'assistant-safety';
import {
  ClaudeCodeHookInput,
  ClaudeCodeHookOutput,
  PostToolUseFailureInput,
  PostToolUseInput,
  PreToolUseInput,
  PreToolUseOutput,
  respondToClaudeCodeHook,
  StopBlockOutput,
  StopInput,
} from 'assistant-safety/hooks';
import { bash, edit, events, read } from './fixtures.js';

/*
 * The hook protocol pinned: the schemas take every documented event (fixtures typed with the SDK's
 * own hook input types) and keep fields they do not read; every answer the gate gives matches
 * Claude Code's documented output and the SDK's SyncHookJSONOutput type.
 */

const e = events('protocol');

describe('the Claude Code hook protocol', () => {
  it('reads every documented event the gate handles', () => {
    const all = [
      e.pre('Edit', edit(), 't1'),
      e.post('Read', read(), 't2'),
      e.failure('Bash', bash('false'), 't3'),
      e.failure('Bash', bash('sleep 9'), 't4', true),
      e.denied('Write', edit(), 't5'),
      e.stop(false),
      e.start(),
      e.end(),
    ];
    for (const event of all) expect(ClaudeCodeHookInput.safeParse(event).success, event.hook_event_name).toBe(true);
  });

  it('keeps fields it does not read, and refuses an event missing one it does', () => {
    const extra = {
      ...e.pre('Read', read(), 't1'),
      agent_id: 'sub-1',
      effort: { level: 'high' },
      mcp_server: undefined,
    };
    expect(PreToolUseInput.parse(extra)).toMatchObject({ agent_id: 'sub-1', effort: { level: 'high' } });
    const { tool_use_id: _, ...missing } = e.pre('Read', read(), 't1');
    expect(PreToolUseInput.safeParse(missing).success).toBe(false);
    const { stop_hook_active: __, ...noFlag } = e.stop(true);
    expect(StopInput.safeParse(noFlag).success).toBe(false);
    expect(ClaudeCodeHookInput.safeParse({ ...e.stop(false), hook_event_name: 'Notification' }).success).toBe(false);
  });

  it('takes the SDK’s hook input types as they are', () => {
    expectTypeOf<PreToolUseHookInput>().toMatchTypeOf<typeof PreToolUseInput._zod.input>();
    expectTypeOf<PostToolUseHookInput>().toMatchTypeOf<typeof PostToolUseInput._zod.input>();
    expectTypeOf<PostToolUseFailureHookInput>().toMatchTypeOf<typeof PostToolUseFailureInput._zod.input>();
    expectTypeOf<StopHookInput>().toMatchTypeOf<typeof StopInput._zod.input>();
    expectTypeOf<ClaudeCodeHookInput>().toMatchTypeOf<Record<string, unknown>>();
    expectTypeOf<HookInput['session_id']>().toEqualTypeOf<string>();
  });

  it('answers in the documented output shapes, which the SDK’s types accept', () => {
    expectTypeOf<ClaudeCodeHookOutput>().toMatchTypeOf<SyncHookJSONOutput>();
    const session = createSafetySession({ targets: 'bind' });
    const deny = respondToClaudeCodeHook(e.pre('Edit', edit(), 'w1'), session, {});
    expect(PreToolUseOutput.parse(deny).hookSpecificOutput).toMatchObject({
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
    });
    const ask = respondToClaudeCodeHook(
      e.pre('Edit', edit(), 'w2'),
      session,
      {},
      { escalate: ['NO_VALIDATED_TARGET'] },
    );
    expect(PreToolUseOutput.parse(ask).hookSpecificOutput.permissionDecision).toBe('ask');
    expect(respondToClaudeCodeHook(e.pre('Read', read(), 'r1'), session, {})).toBeUndefined();
    expect(respondToClaudeCodeHook(e.post('Read', read(), 'r1'), session, {})).toBeUndefined();
    expect(respondToClaudeCodeHook(e.pre('Edit', edit(), 'w3'), session, {})).toBeUndefined();
    expect(respondToClaudeCodeHook(e.post('Edit', edit(), 'w3'), session, {})).toBeUndefined();
    const stop = respondToClaudeCodeHook(e.stop(false), session, {});
    expect(StopBlockOutput.parse(stop).decision).toBe('block');
    expect(ClaudeCodeHookOutput.safeParse(respondToClaudeCodeHook(e.stop(true), session, {})).success).toBe(true);
  });
});
