import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { bash, edit, events, FILE, read, todo } from './fixtures.js';
import { bundleHook, decisionOf, runHook } from './hookProcess.js';

/*
 * The hook command driven as Claude Code drives it: one process per event, the session kept in
 * files between them.
 */

let bundle: string;
beforeAll(() => {
  bundle = bundleHook();
}, 60_000);

const fresh = () => {
  const dir = mkdtempSync(join(tmpdir(), 'hook-state-'));
  const session = `s-${Math.random().toString(36).slice(2)}`;
  const e = events(session);
  const hook = (event: unknown, args?: string[]) => runHook(bundle, dir, event, args);
  return { dir, e, hook };
};

describe('assistant-safety hook claude-code', () => {
  it('denies an Edit before any Read with NO_VALIDATED_TARGET, saying which file to read', async () => {
    const { e, hook } = fresh();
    const run = await hook(e.pre('Edit', edit(), 't1'));
    expect(run.code).toBe(0);
    expect(run.json).toMatchObject({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny' } });
    const reason = (run.json!.hookSpecificOutput as { permissionDecisionReason: string }).permissionDecisionReason;
    expect(reason).toBe(
      'Read src/config.ts first: this session has not read it, and a change needs its file read (or created) in this session. [NO_VALIDATED_TARGET]',
    );
  });

  it('allows Read then Edit and a second Edit of it, and blocks Stop until the edited file is read again', async () => {
    const { e, hook } = fresh();
    expect(decisionOf(await hook(e.pre('Read', read(), 'r1')))).toEqual({ decision: 'allow' });
    expect((await hook(e.post('Read', read(), 'r1'))).code).toBe(0);
    expect(decisionOf(await hook(e.pre('Edit', edit(), 'w1')))).toEqual({ decision: 'allow' });
    expect((await hook(e.post('Edit', edit(), 'w1'))).code).toBe(0);
    // The coding profile (the default): edits in a row are fine; the file waits for evidence.
    expect(decisionOf(await hook(e.pre('Edit', edit(), 'w2')))).toEqual({ decision: 'allow' });
    expect((await hook(e.post('Edit', edit(), 'w2'))).code).toBe(0);

    const stop = await hook(e.stop(false));
    expect(stop.code).toBe(0);
    expect(stop.json).toMatchObject({ decision: 'block' });
    expect(stop.json!.reason).toBe(
      'Read src/config.ts again, or run the tests or the type check, to check the last change to it before stopping. [FINAL_ANSWER_UNVERIFIED]',
    );
    // Sent back once already: the agent may stop (never a loop); the person is told.
    const again = await hook(e.stop(true));
    expect(again.code).toBe(0);
    expect(again.json).toMatchObject({ systemMessage: expect.stringMatching(/FINAL_ANSWER_UNVERIFIED/) });

    expect(decisionOf(await hook(e.pre('Read', read(), 'r2')))).toEqual({ decision: 'allow' });
    await hook(e.post('Read', read(), 'r2'));
    const done = await hook(e.stop(false));
    expect(done).toMatchObject({ code: 0, stdout: '' });
  });

  it('lets a test run begun after the edits cover every edited file, and not one begun before', async () => {
    const { e, hook } = fresh();
    const other = FILE.replace('config', 'other');
    for (const [f, id] of [
      [FILE, 'r1'],
      [other, 'r2'],
    ] as const) {
      await hook(e.pre('Read', read(f), id));
      await hook(e.post('Read', read(f), id));
    }
    await hook(e.pre('Edit', edit(FILE), 'w1'));
    await hook(e.post('Edit', edit(FILE), 'w1'));
    // A test run begins, then a second file is edited before it ends.
    expect(decisionOf(await hook(e.pre('Bash', bash('npm test'), 't1')))).toEqual({ decision: 'allow' });
    await hook(e.pre('Edit', edit(other), 'w2'));
    await hook(e.post('Edit', edit(other), 'w2'));
    await hook(e.post('Bash', bash('npm test'), 't1'));
    const stop = await hook(e.stop(false));
    expect(stop.json!.reason).toMatch(/^Read src\/other\.ts again/);
    await hook(e.pre('Bash', bash('npx tsc --noEmit'), 't2'));
    await hook(e.post('Bash', bash('npx tsc --noEmit'), 't2'));
    expect(await hook(e.stop(false))).toMatchObject({ code: 0, stdout: '' });
  });

  it('keeps one write verified before the next under --profile detection', async () => {
    const { e, hook } = fresh();
    const args = ['--profile', 'detection'];
    await hook(e.pre('Read', read(), 'r1'), args);
    await hook(e.post('Read', read(), 'r1'), args);
    await hook(e.pre('Edit', edit(), 'w1'), args);
    await hook(e.post('Edit', edit(), 'w1'), args);
    expect(decisionOf(await hook(e.pre('Edit', edit(), 'w2'), args))).toEqual({
      decision: 'deny',
      reasonCode: 'UNVERIFIED_WRITE',
    });
  });

  it('binds writes to the file: another file read is no target and no verification', async () => {
    const { e, hook } = fresh();
    const other = FILE.replace('config', 'other');
    await hook(e.pre('Read', read(other), 'r1'));
    await hook(e.post('Read', read(other), 'r1'));
    expect(decisionOf(await hook(e.pre('Edit', edit(), 'w1')))).toEqual({
      decision: 'deny',
      reasonCode: 'TARGET_NOT_VALIDATED',
    });
    await hook(e.pre('Read', read(), 'r2'));
    await hook(e.post('Read', read(), 'r2'));
    expect(decisionOf(await hook(e.pre('Edit', edit(), 'w2')))).toEqual({ decision: 'allow' });
    await hook(e.post('Edit', edit(), 'w2'));
    await hook(e.pre('Read', read(other), 'r3'));
    await hook(e.post('Read', read(other), 'r3'));
    expect((await hook(e.stop(false))).json).toMatchObject({ decision: 'block' });
  });

  it('lets Write create a new file without a read first, then asks for it to be read', async () => {
    const { dir, e, hook } = fresh();
    const created = join(dir, 'new-file.ts');
    const write = { file_path: created, content: 'export {};' };
    expect(decisionOf(await hook(e.pre('Write', write, 'w1')))).toEqual({ decision: 'allow' });
    await hook(e.post('Write', write, 'w1'));
    expect((await hook(e.stop(false))).json).toMatchObject({ decision: 'block' });
    await hook(e.pre('Read', read(created), 'r1'));
    await hook(e.post('Read', read(created), 'r1'));
    expect(await hook(e.stop(false))).toMatchObject({ code: 0, stdout: '' });
    // Verified: the next write may go, but overwriting a file that exists needs a read of it first.
    expect(
      decisionOf(await hook(e.pre('Write', { file_path: join(process.cwd(), 'package.json'), content: '' }, 'w2'))),
    ).toEqual({
      decision: 'deny',
      reasonCode: 'TARGET_NOT_VALIDATED',
    });
  });

  it('never asks for verification after TodoWrite (a state-only write)', async () => {
    const { e, hook } = fresh();
    expect(decisionOf(await hook(e.pre('TodoWrite', todo(), 'td1')))).toEqual({ decision: 'allow' });
    await hook(e.post('TodoWrite', todo(), 'td1'));
    expect(await hook(e.stop(false))).toMatchObject({ code: 0, stdout: '' });
  });

  it('judges Bash by its command: `ls | grep x` reads, `rm -rf src/legacy && ls` writes', async () => {
    const { e, hook } = fresh();
    // A read: allowed before anything else, and it leaves nothing to verify.
    expect(decisionOf(await hook(e.pre('Bash', bash('ls | grep x'), 'b1')))).toEqual({ decision: 'allow' });
    await hook(e.post('Bash', bash('ls | grep x'), 'b1'));
    const write = decisionOf(await hook(e.pre('Bash', bash('rm -rf src/legacy && ls'), 'b2')));
    expect(write.decision).toBe('allow');
    await hook(e.post('Bash', bash('rm -rf src/legacy && ls'), 'b2'));
    expect(decisionOf(await hook(e.pre('Bash', bash('rm -rf src/old'), 'b3')))).toEqual({
      decision: 'deny',
      reasonCode: 'UNVERIFIED_WRITE',
    });
  });

  it('ends a failed call as failed and an interrupted write as possibly landed', async () => {
    const { e, hook } = fresh();
    await hook(e.pre('Read', read(), 'r1'));
    await hook(e.post('Read', read(), 'r1'));
    await hook(e.pre('Edit', edit(), 'w1'));
    await hook(e.failure('Edit', edit(), 'w1'));
    // A failed write leaves nothing to verify: the next one goes.
    expect(decisionOf(await hook(e.pre('Edit', edit(), 'w2')))).toEqual({ decision: 'allow' });
    await hook(e.failure('Edit', edit(), 'w2', true));
    // An interrupted one may have landed: its file needs evidence before a stop, as an edit that landed.
    expect((await hook(e.stop(false))).json).toMatchObject({
      decision: 'block',
      reason: expect.stringMatching(/^Read src\/config\.ts again/),
    });
  });

  it('asks instead of denying an escalated reason, and takes the approval as the evidence', async () => {
    const { e, hook } = fresh();
    const args = ['--escalate', 'NO_VALIDATED_TARGET'];
    expect(decisionOf(await hook(e.pre('Edit', edit(), 'w1'), args))).toEqual({
      decision: 'ask',
      reasonCode: 'NO_VALIDATED_TARGET',
    });
    // The person approved: the tool ran and Claude Code reports it.
    expect((await hook(e.post('Edit', edit(), 'w1'), args)).code).toBe(0);
    // It counts as the edit it was: the file is known now, and needs evidence before a stop.
    expect(decisionOf(await hook(e.pre('Edit', edit(), 'w2'), args))).toEqual({ decision: 'allow' });
    await hook(e.post('Edit', edit(), 'w2'), args);
    expect((await hook(e.stop(false), args)).json).toMatchObject({ decision: 'block' });
  });

  it('ends a call the permission flow refused, so no write stays in flight', async () => {
    const { e, hook } = fresh();
    await hook(e.pre('Read', read(), 'r1'));
    await hook(e.post('Read', read(), 'r1'));
    expect(decisionOf(await hook(e.pre('Edit', edit(), 'w1')))).toEqual({ decision: 'allow' });
    await hook(e.denied('Edit', edit(), 'w1'));
    expect(decisionOf(await hook(e.pre('Edit', edit(), 'w2')))).toEqual({ decision: 'allow' });
  });

  it('refuses with exit code 2 and a message on stderr when its input is not a hook event', async () => {
    const { hook } = fresh();
    const garbage = await hook('{"hook_event_name":"PreToolUse","tool_name":"Edit"');
    expect(garbage.code).toBe(2);
    expect(garbage.stderr).toMatch(/not JSON.*refused/);
    const wrong = await hook({ hook_event_name: 'PreToolUse', session_id: 's', tool_name: 'Edit' });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/hook schema: .*tool_use_id/);
  });

  it('refuses with exit code 2 when the state folder cannot be written', async () => {
    const { e } = fresh();
    const run = await runHook(bundle, '/proc/version/not-a-folder', e.pre('Read', read(), 'r1'));
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/refused/);
  });

  it('forgets the session at SessionEnd', async () => {
    const { e, hook } = fresh();
    await hook(e.pre('Read', read(), 'r1'));
    await hook(e.post('Read', read(FILE), 'r1'));
    expect((await hook(e.end())).code).toBe(0);
    expect(decisionOf(await hook(e.pre('Edit', edit(), 'w1')))).toMatchObject({ reasonCode: 'NO_VALIDATED_TARGET' });
  });
});
