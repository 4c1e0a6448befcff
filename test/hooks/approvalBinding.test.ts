import { describe, expect, it } from 'vitest';
import { createSafetySession, type RecordingEntry } from 'assistant-safety';
import { respondToClaudeCodeHook } from 'assistant-safety/hooks';
import { CWD, edit, events, read } from './fixtures.js';

/*
 * A person's approval is evidence for the block they were shown, on the call they were shown:
 * when another block arose before the approved call ran (here a parallel Edit left its file
 * unchecked), the approval does not attest it.
 */

const e = events('approval');
const OTHER = `${CWD}/src/other.ts`;

describe('an approval given in Claude Code', () => {
  it('applies only to the block and tool-use id the person saw', () => {
    const entries: RecordingEntry[] = [];
    const session = createSafetySession({ targets: 'bind', recorder: { record: (x) => void entries.push(x) } });
    const notes = {};
    const opts = { escalate: ['TARGET_NOT_VALIDATED', 'UNVERIFIED_WRITE'] as const };
    const respond = (event: Parameters<typeof respondToClaudeCodeHook>[0]) =>
      respondToClaudeCodeHook(event, session, notes, { ...opts, escalate: [...opts.escalate] });

    respond(e.pre('Read', read(), 'r1'));
    respond(e.post('Read', read(), 'r1'));
    // The person is asked about an Edit of a file this session never read.
    const asked = respond(e.pre('Edit', edit(OTHER), 'w1'));
    expect(asked).toMatchObject({
      hookSpecificOutput: {
        permissionDecision: 'ask',
        permissionDecisionReason: 'Allow Edit of src/other.ts, which this session has not read? [TARGET_NOT_VALIDATED]',
      },
    });
    // Meanwhile a parallel Edit of the file that was read runs and ends: its change is unchecked.
    expect(respond(e.pre('Edit', edit(), 'w2'))).toBeUndefined();
    respond(e.post('Edit', edit(), 'w2'));
    // The approved Edit ran. Its block is now UNVERIFIED_WRITE, which nobody was shown.
    respond(e.post('Edit', edit(OTHER), 'w1'));
    const attested = entries.filter((x) => x.call.type === 'attest').map((x) => x.call);
    expect(attested.map((c) => (c as { reasonCode: string }).reasonCode)).not.toContain('UNVERIFIED_WRITE');
    expect(session.canFinalAnswer()?.reasonCode).toBe('FINAL_ANSWER_UNVERIFIED');
  });

  it('is not applied to another tool-use id, and is to the one asked about', () => {
    const run = (postId: string) => {
      const entries: RecordingEntry[] = [];
      const session = createSafetySession({ targets: 'bind', recorder: { record: (x) => void entries.push(x) } });
      const notes = {};
      const respond = (event: Parameters<typeof respondToClaudeCodeHook>[0]) =>
        respondToClaudeCodeHook(event, session, notes, { escalate: ['NO_VALIDATED_TARGET'] });
      expect(respond(e.pre('Edit', edit(), 'w1'))).toMatchObject({ hookSpecificOutput: { permissionDecision: 'ask' } });
      respond(e.post('Edit', edit(), postId));
      return entries.filter((x) => x.call.type === 'attest').length;
    };
    expect(run('w9')).toBe(0);
    expect(run('w1')).toBe(1);
  });
});
