import { describe, expect, it } from 'vitest';
import { createSafetySession } from 'assistant-safety';
import { createCodingAgentClassifier, respondToClaudeCodeHook, type ClaudeCodeHookInput } from 'assistant-safety/hooks';
import { CWD } from './fixtures.js';

const base = { session_id: 's', transcript_path: '/tmp/s.jsonl', cwd: CWD };
const classify = createCodingAgentClassifier({
  rules: { tools: { mcp__mail__send: { kind: 'write', targets: ['to'], prefix: 'email:' } } },
  cwd: CWD,
});
const send = (id: string, to: string): ClaudeCodeHookInput => ({
  ...base,
  hook_event_name: 'PreToolUse',
  tool_name: 'mcp__mail__send',
  tool_input: { to, body: 'hi' },
  tool_use_id: id,
});
const decision = (out: unknown) =>
  (out as { hookSpecificOutput?: { permissionDecision?: string } } | undefined)?.hookSpecificOutput
    ?.permissionDecision ?? 'allow';

describe('the Claude Code hook and UserPromptSubmit', () => {
  it('should take the prompt as the user’s words: a write to an address the user typed goes, another does not', () => {
    const session = createSafetySession({ targets: 'bind' });
    const notes = {};
    const prompt: ClaudeCodeHookInput = {
      ...base,
      hook_event_name: 'UserPromptSubmit',
      prompt: 'Mail Bob (bob@example.com) that the build is green.',
    };
    expect(respondToClaudeCodeHook(prompt, session, notes, { classify })).toBeUndefined();
    expect(decision(respondToClaudeCodeHook(send('t1', 'eve@evil.test'), session, notes, { classify }))).toBe('deny');
    expect(decision(respondToClaudeCodeHook(send('t2', 'bob@example.com'), session, notes, { classify }))).toBe(
      'allow',
    );
    expect(session.context.provenance).toEqual([
      expect.objectContaining({ target: 'email:bob@example.com', source: 'user', words: 'bob@example.com' }),
    ]);
  });
});
