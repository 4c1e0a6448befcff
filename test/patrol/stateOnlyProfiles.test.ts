import { describe, expect, it } from 'vitest';
import { createSafetySession } from 'assistant-safety';
import { PATROL_TOOLS } from 'assistant-safety/patrol';
import { cpuReport, mainPass, run } from './harness.js';

/*
 * The finding tools are state-only writes: under the detection profile a run
 * may file them before any target is validated, and they move nothing in the
 * safety machine; under the other profiles they are refused in RESOLVING.
 */

const report = { id: 'r', kind: 'write' as const, tool: PATROL_TOOLS.reportFinding, stateOnly: true };

describe('state-only writes under each profile', () => {
  it('detection: a report in RESOLVING is allowed, and leaves the session in RESOLVING with nothing written', () => {
    const s = createSafetySession({ profile: 'detection' });
    expect(s.beginToolCall(report)).toBeNull();
    s.endToolCall({ id: 'r', ok: true });
    expect([s.state, s.wroteThisEpisode, s.lastWriteTool]).toEqual(['RESOLVING', false, undefined]);
    for (const tool of [PATROL_TOOLS.assessFinding, 'patrol_propose_observer'])
      expect(s.beginToolCall({ id: tool, kind: 'write', tool, stateOnly: true })).toBeNull();
  });

  it('detection: an infrastructure write in RESOLVING is still blocked', () => {
    const s = createSafetySession({ profile: 'detection' });
    expect(s.beginToolCall({ id: 'w', kind: 'write', tool: 'pulse_control' })?.reasonCode).toBe('NO_VALIDATED_TARGET');
  });

  it('interactive and investigation: the same report in RESOLVING is blocked', () => {
    expect(createSafetySession({ profile: 'interactive' }).beginToolCall(report)?.reasonCode).toBe(
      'NO_VALIDATED_TARGET',
    );
    expect(createSafetySession().beginToolCall(report)?.reasonCode).toBe('NO_VALIDATED_TARGET');
    const denied = createSafetySession({ profile: 'investigation' }).beginToolCall(report);
    expect(denied?.reasonCode).toBe('POLICY_DENIED');
  });

  it('detection: a findings read moves RESOLVING to READING', () => {
    const s = createSafetySession({ profile: 'detection' });
    expect(s.beginToolCall({ id: 'g', kind: 'read', tool: PATROL_TOOLS.getFindings })).toBeNull();
    s.endToolCall({ id: 'g', ok: true });
    expect(s.state).toBe('READING');
  });

  it('in VERIFYING a state-only write is blocked like any write and verifies nothing; a later read does', () => {
    const s = createSafetySession({ profile: 'detection' });
    s.beginToolCall({ id: 'q', kind: 'read', tool: 'pulse_query' });
    s.endToolCall({ id: 'q', ok: true });
    expect(s.beginToolCall({ id: 'w', kind: 'write', tool: 'pulse_control' })).toBeNull();
    s.endToolCall({ id: 'w', ok: true });
    expect(s.state).toBe('VERIFYING');
    const blocked = s.beginToolCall(report);
    expect(blocked?.reasonCode).toBe('UNVERIFIED_WRITE');
    expect(s.consecutiveVerifyBlocks).toBe(1);
    expect([s.state, s.readAfterWrite]).toEqual(['VERIFYING', false]);
    expect(s.canFinalAnswer()?.reasonCode).toBe('FINAL_ANSWER_UNVERIFIED');
    s.beginToolCall({ id: 'v', kind: 'read', tool: 'pulse_query' });
    s.endToolCall({ id: 'v', ok: true });
    expect([s.state, s.readAfterWrite, s.canFinalAnswer()]).toEqual(['VERIFYING', true, null]);
  });

  it('a run files findings from a fresh detection session, and an investigation cannot file any', async () => {
    const answers: string[] = [];
    const { record } = await run({
      autonomy: 'approval',
      passes: {
        main: async (input) => {
          await mainPass()(input);
          const r = await input.tools.reportFinding(cpuReport);
          answers.push(`main: ${r.ok ? 'filed' : r.error.code} in ${input.session.state}`);
        },
        evaluation: async () => undefined,
      },
      investigate: (_f, session) => {
        answers.push(`investigation: ${session.beginToolCall(report)?.reasonCode ?? 'allowed'}`);
      },
    }).then(async (r) => {
      await r.investigations;
      return r;
    });
    expect(answers).toEqual(['main: filed in READING', 'investigation: POLICY_DENIED']);
    expect(record.newFindings).toBe(1);
  });
});
