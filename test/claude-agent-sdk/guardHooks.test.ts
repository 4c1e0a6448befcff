import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type {
  CanUseTool,
  HookCallback,
  HookEvent,
  HookInput,
  HookJSONOutput,
  Options,
  SyncHookJSONOutput,
} from '@anthropic-ai/claude-agent-sdk';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { createSafetySession } from 'assistant-safety';
import { guardHooks, type GuardedHooks } from 'assistant-safety/claude-agent-sdk';
import { createFileSessionStore } from 'assistant-safety/node';
import { bash, edit, events, read, todo } from '../hooks/fixtures.js';
import { reasonCodeOf } from '../hooks/hookProcess.js';

/*
 * The Claude Agent SDK adapter, in-process: the same scenarios as the hook command, through the
 * SDK's own hook callback and canUseTool types.
 */

const signal = new AbortController().signal;

function driver(guarded: GuardedHooks) {
  const fire = async (input: HookInput): Promise<SyncHookJSONOutput> => {
    const matchers = guarded.hooks[input.hook_event_name as HookEvent] ?? [];
    const outputs: HookJSONOutput[] = [];
    for (const m of matchers)
      for (const h of m.hooks)
        outputs.push(await h(input, 'tool_use_id' in input ? input.tool_use_id : undefined, { signal }));
    expect(outputs).toHaveLength(1);
    return outputs[0] as SyncHookJSONOutput;
  };
  const decision = async (input: HookInput) => {
    const out = await fire(input);
    const specific = out.hookSpecificOutput;
    if (!specific || specific.hookEventName !== 'PreToolUse') return { decision: 'allow' };
    return { decision: specific.permissionDecision, reasonCode: reasonCodeOf(specific.permissionDecisionReason) };
  };
  return { fire, decision };
}

const bound = () => createSafetySession({ targets: 'bind', profile: 'detection' });

describe('guardHooks (assistant-safety/claude-agent-sdk)', () => {
  it('returns the SDK’s own hooks and canUseTool types', () => {
    const guarded = guardHooks({ session: bound() });
    expectTypeOf(guarded.hooks).toMatchTypeOf<NonNullable<Options['hooks']>>();
    expectTypeOf(guarded.canUseTool).toEqualTypeOf<CanUseTool>();
    expectTypeOf(guarded.hooks.PreToolUse![0]!.hooks[0]!).toEqualTypeOf<HookCallback>();
    const options: Options = { hooks: guarded.hooks, canUseTool: guarded.canUseTool };
    expect(Object.keys(options.hooks!).sort()).toEqual(
      ['PermissionDenied', 'PostToolUse', 'PostToolUseFailure', 'PreToolUse', 'Stop', 'UserPromptSubmit'].sort(),
    );
  });

  it('passes the hook scenarios in-process', async () => {
    const e = events('sdk-1');
    const { fire, decision } = driver(guardHooks({ session: bound() }));
    expect(await decision(e.pre('Edit', edit(), 'w0'))).toEqual({
      decision: 'deny',
      reasonCode: 'NO_VALIDATED_TARGET',
    });
    expect(await decision(e.pre('Read', read(), 'r1'))).toEqual({ decision: 'allow' });
    await fire(e.post('Read', read(), 'r1'));
    expect(await decision(e.pre('Edit', edit(), 'w1'))).toEqual({ decision: 'allow' });
    await fire(e.post('Edit', edit(), 'w1'));
    expect(await decision(e.pre('Edit', edit(), 'w2'))).toEqual({ decision: 'deny', reasonCode: 'UNVERIFIED_WRITE' });
    const stop = await fire(e.stop(false));
    expect(stop.decision).toBe('block');
    expect(reasonCodeOf(stop.reason)).toBe('FINAL_ANSWER_UNVERIFIED');
    expect((await fire(e.stop(true))).decision).toBeUndefined();
    expect(await decision(e.pre('Read', read(), 'r2'))).toEqual({ decision: 'allow' });
    await fire(e.post('Read', read(), 'r2'));
    expect(await fire(e.stop(false))).toEqual({});
  });

  it('judges Bash by its command in-process', async () => {
    const e = events('sdk-2');
    const { fire, decision } = driver(guardHooks({ session: bound() }));
    expect(await decision(e.pre('Bash', bash('ls | grep x'), 'b1'))).toEqual({ decision: 'allow' });
    await fire(e.post('Bash', bash('ls | grep x'), 'b1'));
    expect(await decision(e.pre('Bash', bash('rm -rf build && ls'), 'b2'))).toEqual({ decision: 'allow' });
    await fire(e.post('Bash', bash('rm -rf build && ls'), 'b2'));
    expect(await decision(e.pre('Bash', bash('git status'), 'b3'))).toEqual({ decision: 'allow' });
    expect(await decision(e.pre('Bash', bash('npm install'), 'b4'))).toEqual({
      decision: 'deny',
      reasonCode: 'UNVERIFIED_WRITE',
    });
  });

  it('never asks for verification after TodoWrite', async () => {
    const e = events('sdk-3');
    const { fire, decision } = driver(guardHooks({ session: bound() }));
    expect(await decision(e.pre('TodoWrite', todo(), 'td1'))).toEqual({ decision: 'allow' });
    await fire(e.post('TodoWrite', todo(), 'td1'));
    expect(await fire(e.stop(false))).toEqual({});
  });

  it('keeps sessions in a store, keyed by the SDK session id', async () => {
    const store = createFileSessionStore({
      dir: mkdtempSync(join(tmpdir(), 'sdk-store-')),
      session: { targets: 'bind', profile: 'detection' },
    });
    const { fire, decision } = driver(guardHooks({ store }));
    const a = events('sdk-a');
    const b = events('sdk-b');
    await decision(a.pre('Read', read(), 'r1'));
    await fire(a.post('Read', read(), 'r1'));
    expect(await decision(a.pre('Edit', edit(), 'w1'))).toEqual({ decision: 'allow' });
    // Another session has read nothing.
    expect(await decision(b.pre('Edit', edit(), 'w1'))).toEqual({
      decision: 'deny',
      reasonCode: 'NO_VALIDATED_TARGET',
    });
    expect(Object.keys((await store.get('sdk-a'))!.session.context.calls)).toEqual(['w1']);
  });

  it('puts an escalated call to approve through canUseTool, and a denial returns the block to the model', async () => {
    const e = events('sdk-4');
    const asked: string[] = [];
    const guarded = guardHooks({
      session: bound(),
      escalate: ['NO_VALIDATED_TARGET'],
      isNewFile: () => false,
      approve: ({ toolName, toolUseID }) => {
        asked.push(toolName);
        return toolUseID === 'w1';
      },
    });
    const { decision } = driver(guarded);
    expect(await decision(e.pre('Edit', edit(), 'w1'))).toEqual({ decision: 'ask', reasonCode: 'NO_VALIDATED_TARGET' });
    expect(await guarded.canUseTool('Edit', edit(), { signal, toolUseID: 'w1', requestId: 'q1' })).toEqual({
      behavior: 'allow',
      updatedInput: edit(),
    });
    expect(await decision(e.pre('Write', edit('/tmp/x'), 'w2'))).toMatchObject({ decision: 'ask' });
    const denied = await guarded.canUseTool('Write', edit('/tmp/x'), { signal, toolUseID: 'w2', requestId: 'q2' });
    expect(denied).toMatchObject({ behavior: 'deny' });
    expect((denied as { message: string }).message).toBe(
      'Allow Write of /tmp/x, which this session has not read? [NO_VALIDATED_TARGET]',
    );
    expect(asked).toEqual(['Edit', 'Write']);
    // A prompt the gate did not raise: denied unless the caller answers it.
    expect(await guarded.canUseTool('Bash', bash('ls'), { signal, toolUseID: 'other', requestId: 'q3' })).toMatchObject(
      {
        behavior: 'deny',
      },
    );
  });

  it('takes an approved escalated call as the evidence when it ran', async () => {
    const e = events('sdk-5');
    const guarded = guardHooks({ session: bound(), escalate: ['NO_VALIDATED_TARGET'], approve: () => true });
    const { fire, decision } = driver(guarded);
    expect(await decision(e.pre('Edit', edit(), 'w1'))).toMatchObject({ decision: 'ask' });
    await guarded.canUseTool('Edit', edit(), { signal, toolUseID: 'w1', requestId: 'q1' });
    await fire(e.post('Edit', edit(), 'w1'));
    expect(await decision(e.pre('Edit', edit(), 'w2'))).toEqual({ decision: 'deny', reasonCode: 'UNVERIFIED_WRITE' });
  });

  it('lets Write create a file that does not exist yet without a read first', async () => {
    const e = events('sdk-6');
    const { fire, decision } = driver(guardHooks({ session: bound() }));
    const created = { file_path: join(mkdtempSync(join(tmpdir(), 'sdk-new-')), 'new.ts'), content: '' };
    expect(await decision(e.pre('Write', created, 'w1'))).toEqual({ decision: 'allow' });
    await fire(e.post('Write', created, 'w1'));
    expect((await fire(e.stop(false))).decision).toBe('block');
  });

  it('denies the call when its input is not a hook event, rather than letting it through', async () => {
    const { hooks } = guardHooks({ session: bound() });
    const out = (await hooks.PreToolUse![0]!.hooks[0]!(
      { hook_event_name: 'PreToolUse', session_id: 's' } as unknown as HookInput,
      undefined,
      { signal },
    )) as SyncHookJSONOutput;
    expect(out.hookSpecificOutput).toMatchObject({ permissionDecision: 'deny' });
  });

  it('refuses bad options when the hooks are made, naming the option, rather than denying every call later', () => {
    const bad: [unknown, RegExp][] = [
      [{}, /options\.session: expected exactly one of session .* and store/],
      [{ session: undefined }, /options\.session: expected exactly one/],
      [{ session: bound(), store: createFileSessionStore({ dir: mkdtempSync(join(tmpdir(), 'gh-')) }) }, /exactly one/],
      [{ store: {} }, /options\.store: expected a session store with withSession/],
      [{ session: {} }, /options\.session: expected a SafetySession/],
      [{ session: bound(), classify: 'x' }, /options\.classify: expected a function/],
      [{ session: bound(), escalate: ['NOPE'] }, /options\.escalate\.0: /],
      [{ session: bound(), escalate: ['WRITE_IN_FLIGHT'] }, /options\.escalate\.0: WRITE_IN_FLIGHT cannot be asked/],
      [{ session: bound(), approve: true }, /options\.approve: expected a function/],
      [null, /options: expected an object/],
    ];
    for (const [options, message] of bad) expect(() => guardHooks(options as never)).toThrow(message);
    expect(() => guardHooks({ session: bound(), escalate: ['TARGET_NOT_VALIDATED'] })).not.toThrow();
  });

  it('denies a permission prompt it did not raise with a reason that says the gate did not refuse it', async () => {
    const { canUseTool } = guardHooks({ session: bound() });
    const answer = await canUseTool('Bash', { command: 'make' }, { signal, toolUseID: 'b1', requestId: 'q1' });
    expect(answer).toMatchObject({ behavior: 'deny' });
    expect((answer as { message: string }).message).toMatch(/permission .*Bash.* not granted/);
  });
});
