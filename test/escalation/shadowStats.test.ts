import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { createMemoryRecorder, createSafetySession } from 'assistant-safety';
import { summariseEntries, metricPointsOf, createEntryInterpreter, createToolNamer } from 'assistant-safety/insights';

function shadowRun() {
  const recorder = createMemoryRecorder();
  const s = createSafetySession({ mode: 'shadow', recorder, id: 'shadow-1' });
  s.beginToolCall({ id: 'w0', kind: 'write', tool: 'restart_vm' }); // would block: no target
  s.endToolCall({ id: 'w0', ok: true });
  s.beginToolCall({ id: 'w1', kind: 'write', tool: 'restart_vm' }); // would block: unverified
  s.endToolCall({ id: 'w1', ok: true });
  s.canFinalAnswer(); // would block
  const t = createSafetySession({ recorder, id: 'enforce-1' });
  t.attest(t.beginToolCall({ id: 'w', kind: 'write', tool: 'restart_vm' })!, { by: 'alice' });
  return recorder.entries;
}

describe('would-be blocks and attestations in the numbers', () => {
  it('should count would-be blocks and attestations in the summary', () => {
    const summary = summariseEntries(shadowRun());
    expect(summary.wouldBlock).toEqual({ NO_VALIDATED_TARGET: 1, UNVERIFIED_WRITE: 1, FINAL_ANSWER_UNVERIFIED: 1 });
    expect(summary.attested).toEqual({ NO_VALIDATED_TARGET: 1 });
    expect(summary.blocked).toEqual({ NO_VALIDATED_TARGET: 1 });
  });

  it('should give would_block and attested decisions as metric points', () => {
    const interpreter = createEntryInterpreter();
    const namer = createToolNamer();
    const decisions = shadowRun()
      .flatMap((e) => metricPointsOf(interpreter.observe(e), namer))
      .filter((p) => p.metric === 'decisions')
      .map((p) => `${p.attributes['assistant_safety.decision']}:${p.attributes['assistant_safety.reason_code'] ?? ''}`);
    expect(decisions).toEqual([
      'would_block:NO_VALIDATED_TARGET',
      'would_block:UNVERIFIED_WRITE',
      'blocked:NO_VALIDATED_TARGET',
      'attested:NO_VALIDATED_TARGET',
    ]);
  });

  it('should show the would-be blocks in `stats`', () => {
    const dir = mkdtempSync(join(tmpdir(), 'shadow-stats-'));
    const file = join(dir, 'shadow.jsonl');
    writeFileSync(
      file,
      shadowRun()
        .map((e) => JSON.stringify(e))
        .join('\n') + '\n',
    );
    const out = execFileSync(
      process.execPath,
      ['--import', 'tsx', 'src/cli/bin.ts', 'stats', file, '--format', 'json'],
      {
        encoding: 'utf8',
      },
    );
    expect(JSON.parse(out).wouldBlock).toEqual({
      NO_VALIDATED_TARGET: 1,
      UNVERIFIED_WRITE: 1,
      FINAL_ANSWER_UNVERIFIED: 1,
    });
    const text = execFileSync(process.execPath, ['--import', 'tsx', 'src/cli/bin.ts', 'stats', file], {
      encoding: 'utf8',
    });
    expect(text).toContain('shadow mode: would have blocked');
  });
});
