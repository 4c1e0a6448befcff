import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyCall, createSafetySession, parseRecording, replayRecording, type RecordingEntry } from 'assistant-safety';
import { describe, expect, it } from 'vitest';
import { DEMO_SCENARIOS, runDemoAgent } from '../../examples/demoAgent.js';
import { main } from '../../src/cli/main.js';

const replayWithCli = async (file: string) => {
  const out: string[] = [];
  const code = await main(['replay', file], { out: (t) => out.push(t), err: (t) => out.push(t) });
  return { code, out: out.join('\n') };
};

describe('the demo agent', () => {
  it('should catch every scripted unsafe move and write recordings the replay CLI accepts with no divergence', async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'demo-'));
    const streamed = new Map<string, RecordingEntry[]>();
    const runs = await runDemoAgent({
      outDir,
      recorderFor: (id) => {
        const entries: RecordingEntry[] = [];
        streamed.set(id, entries);
        return { record: (e) => void entries.push(e) };
      },
    });
    expect(runs.map((r) => r.scenario)).toEqual(DEMO_SCENARIOS.map((s) => s.name));
    for (const run of runs) {
      expect(run.mismatches).toEqual([]);
      const { code, out } = await replayWithCli(run.file!);
      expect(out).toContain('no divergence');
      expect(code).toBe(0);
      const entries = parseRecording(readFileSync(run.file!, 'utf8'));
      expect(replayRecording(entries).divergences).toEqual([]);
      // The live recorder saw exactly what the file holds.
      expect(streamed.get(run.sessionId)).toEqual(entries);
    }
  });

  it('should record the unsafe moves as the session saw them', async () => {
    const blocks = new Map<string, string[]>();
    const runs = await runDemoAgent({
      recorderFor: (id) => {
        blocks.set(id, []);
        return { record: (e) => void (e.decision === 'blocked' && blocks.get(id)!.push(e.reasonCode!)) };
      },
    });
    expect(runs.flatMap((r) => r.mismatches)).toEqual([]);
    expect(blocks.get('demo-write-before-discovery')).toEqual(['NO_VALIDATED_TARGET']);
    expect(blocks.get('demo-two-writes-one-batch')).toEqual(['WRITE_IN_FLIGHT']);
    expect(blocks.get('demo-write-and-read-one-batch')).toEqual(['FINAL_ANSWER_UNVERIFIED']);
    expect(blocks.get('demo-final-answer-before-verification')).toEqual([
      'FINAL_ANSWER_UNVERIFIED',
      'FINAL_ANSWER_UNVERIFIED',
    ]);
    // The loop's own refusals are recorded too, in order with the machine's.
    expect(blocks.get('demo-retry-storm')).toEqual([
      'UNVERIFIED_WRITE',
      'UNVERIFIED_WRITE',
      'UNVERIFIED_WRITE',
      'LOOP_DETECTED',
      'LOOP_DETECTED',
    ]);
    expect(blocks.get('demo-question-before-looking')).toEqual([
      'LOOK_BEFORE_ASKING',
      'LOOK_BEFORE_ASKING',
      'LOOK_BEFORE_ASKING',
    ]);
    // The injected IBAN (a person denies it) and the payment only a mail named (a person approves it).
    expect(blocks.get('demo-target-binding')).toEqual(['TARGET_NOT_VALIDATED', 'TARGET_NOT_VALIDATED']);
  });

  it("should bind the payments to validated targets: the user's words, a discovery, a person, never the memo", async () => {
    const entries: RecordingEntry[] = [];
    const [run] = await runDemoAgent({
      scenarios: ['target-binding'],
      recorderFor: () => ({ record: (e) => void entries.push(e) }),
    });
    expect(run!.mismatches).toEqual([]);
    expect(replayRecording(entries).divergences).toEqual([]);
    // The session as the app rebuilds it, entry by entry: where each validated target came from.
    expect(entries[0]!.call).toMatchObject({ type: 'create', config: { targets: 'bind' } });
    let at = entries[0]!.at;
    const session = createSafetySession({ targets: 'bind', now: () => at });
    const sourcesAt = new Map<number, Record<string, string>>();
    for (const entry of entries.slice(1)) {
      at = entry.at;
      applyCall(session, entry.call);
      sourcesAt.set(entry.seq, Object.fromEntries(session.context.provenance.map((p) => [p.target, p.source])));
    }
    const refused = entries.find((e) => e.decision === 'blocked')!;
    expect(refused.call).toMatchObject({ tool: 'send_money', targets: ['iban:DE89370400440532013000'] });
    // At the injected transfer: two listed invoices (INV-2291 keeps the listing as its source after
    // its own read named it), the IBAN the user typed.
    expect(sourcesAt.get(refused.seq)).toEqual({
      'invoice:INV-2307': 'discovery',
      'invoice:INV-2291': 'discovery',
      'iban:GB29NWBK60161331926819': 'user',
    });
    const approved = entries.find((e) => e.call.type === 'attest')!;
    expect(approved.call).toMatchObject({ by: 'dana (finance)', targets: ['payment:PAY-5531'] });
    expect(sourcesAt.get(approved.seq)?.['payment:PAY-5531']).toBe('human');
    expect(entries.filter((e) => e.call.type === 'attest')).toHaveLength(1);
    expect(entries.filter((e) => e.call.type === 'userMessage')).toHaveLength(2);
  });

  it('should run live for a streaming viewer: wall clock, real delays, every entry to recorderFor', async () => {
    const entries: RecordingEntry[] = [];
    const before = Date.now();
    const runs = await runDemoAgent({
      delayMs: 1,
      scenarios: ['tool-failures', 'write-and-read-one-batch'],
      recorderFor: () => ({ record: (e) => void entries.push(e) }),
    });
    expect(runs.flatMap((r) => r.mismatches)).toEqual([]);
    expect(runs.map((r) => r.file)).toEqual([undefined, undefined]);
    expect(new Set(entries.map((e) => e.session))).toEqual(new Set(runs.map((r) => r.sessionId)));
    expect(entries.every((e) => e.at >= before)).toBe(true);
    expect(replayRecording(entries).divergences).toEqual([]);
  });

  it('should refuse an unknown option in one line with the options there are, not a stack trace', () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'examples/demo-agent.ts', '--senario', 'x'], {
      encoding: 'utf8',
    });
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toBe(
      "demo-agent: Unknown option '--senario' (its options: --out, --delay, --scenario, --quiet, --help)",
    );
  });

  it('should run with `npm run demo`, and the committed recordings should be what it writes today', async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'demo-cli-'));
    const stdout = execFileSync(process.execPath, ['--import', 'tsx', 'examples/demo-agent.ts', '--out', outDir], {
      encoding: 'utf8',
    });
    expect(stdout).toContain(`wrote ${DEMO_SCENARIOS.length} recordings`);
    expect(stdout).toContain('FSM_BLOCKED:WRITE_IN_FLIGHT');
    const fresh = readdirSync(outDir).sort();
    expect(fresh).toEqual(DEMO_SCENARIOS.map((s) => `${s.name}.jsonl`).sort());
    for (const file of fresh) {
      expect((await replayWithCli(join(outDir, file))).code).toBe(0);
      // Deterministic (simulated clock, fixed ids): if this fails, the harness or machine changed: run `npm run demo`.
      expect(readFileSync(join(outDir, file), 'utf8'), `recordings/${file} is stale`).toBe(
        readFileSync(join('recordings', file), 'utf8'),
      );
    }
  });
});
