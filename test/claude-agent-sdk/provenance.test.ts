import type {
  HookEvent,
  HookInput,
  PostToolUseHookInput,
  UserPromptSubmitHookInput,
} from '@anthropic-ai/claude-agent-sdk';
import { describe, expect, it } from 'vitest';
import { createSafetySession } from 'assistant-safety';
import { guardHooks } from 'assistant-safety/claude-agent-sdk';
import { createCodingAgentClassifier } from 'assistant-safety/hooks';
import { CWD, events } from '../hooks/fixtures.js';

/*
 * The Claude Agent SDK adapter and provenance, through the SDK's own hook input types: the
 * query's prompt (UserPromptSubmit) is the user's words, and a tool's response is read by the
 * rules' `discovers` fields.
 */

const signal = new AbortController().signal;
const classify = createCodingAgentClassifier({
  rules: {
    tools: {
      mcp__mail__contacts: { kind: 'read', discovers: [{ path: 'email', prefix: 'email:' }] },
      mcp__mail__send: { kind: 'write', targets: ['to'], prefix: 'email:' },
    },
  },
  cwd: CWD,
});

describe('guardHooks and provenance', () => {
  it('should take the prompt as the user’s words and a response’s declared field as discovery', async () => {
    const session = createSafetySession({ targets: 'bind' });
    const { hooks } = guardHooks({ session, classify });
    const fire = async (input: HookInput) => {
      const [matcher] = hooks[input.hook_event_name as HookEvent] ?? [];
      return matcher!.hooks[0]!(input, 'tool_use_id' in input ? input.tool_use_id : undefined, { signal });
    };
    const e = events('s1');
    const denied = async (out: unknown) =>
      (out as { hookSpecificOutput?: { permissionDecision?: string } }).hookSpecificOutput?.permissionDecision ===
      'deny';
    const prompt: UserPromptSubmitHookInput = {
      session_id: 's1',
      transcript_path: '/tmp/s1.jsonl',
      cwd: CWD,
      hook_event_name: 'UserPromptSubmit',
      prompt: 'Send the notes to ann@example.com and to Bob.',
    };
    await fire(prompt);
    expect(await denied(await fire(e.pre('mcp__mail__send', { to: 'ann@example.com' }, 'w1')))).toBe(false);
    await fire(e.post('mcp__mail__send', { to: 'ann@example.com' }, 'w1'));
    expect(await denied(await fire(e.pre('mcp__mail__contacts', { name: 'Bob' }, 'r1')))).toBe(false);
    const response: PostToolUseHookInput = {
      ...e.post('mcp__mail__contacts', { name: 'Bob' }, 'r1'),
      tool_response: [{ name: 'Bob', email: 'bob@example.com' }],
    };
    await fire(response);
    expect(session.context.provenance.map((p) => [p.target, p.source, p.field ?? p.words])).toEqual([
      ['email:ann@example.com', 'user', 'ann@example.com'],
      ['email:bob@example.com', 'discovery', 'email'],
    ]);
  });
});
