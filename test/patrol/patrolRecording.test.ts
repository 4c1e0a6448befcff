import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  createPatrolMachine,
  isPatrolRecordingText,
  parsePatrolRecording,
  patrolRecordingText,
  replayPatrolSteps,
} from 'assistant-safety/patrol';
import { runPatrolDemo } from '../../examples/patrolDemo.js';

const FILE = 'recordings/patrol-demo.patrol.jsonl';
const text = readFileSync(FILE, 'utf8');

describe('a recorded Patrol run', () => {
  it('should replay the shipped recording on the shipped machine with zero divergences', () => {
    const read = parsePatrolRecording(FILE, text);
    if (!read.ok) throw new Error(read.message);
    const { divergences, final } = replayPatrolSteps(read.recording.steps);
    expect(divergences).toEqual([]);
    expect(final).toMatchObject({ state: 'done', records: 1, evaluationReports: 1 });
  });

  it('should carry the signals, the missed one, the findings and the passes of the run', () => {
    const read = parsePatrolRecording(FILE, text);
    if (!read.ok) throw new Error(read.message);
    const { steps, record } = read.recording;
    const detected = steps.find((s) => s.event.type === 'SIGNALS_DETECTED')!;
    expect(detected.signals?.map((s) => s.type)).toEqual(['high_cpu', 'high_disk', 'smart_failure', 'backup_failed']);
    expect(detected.unmatched?.map((s) => s.type)).toEqual(['smart_failure']);
    const caught = steps.find((s) => s.pass === 'evaluation' && s.event.type === 'REPORT_REQUESTED')!;
    expect(caught.finding).toMatchObject({ severity: 'critical', resourceId: 'pve1' });
    expect(steps.filter((s) => s.pass === 'main' && s.event.type === 'REPORT_REQUESTED')).toHaveLength(3);
    expect(record.unmatchedAfterEvaluation).toEqual([]);
  });

  it('should be what the demo writes today (regenerate with npm run patrol-demo -- --recording)', async () => {
    const { result } = await runPatrolDemo();
    expect(patrolRecordingText(result)).toBe(text);
    expect(isPatrolRecordingText(text)).toBe(true);
  });

  it('should diverge on a machine edited to skip the stale reconcile', () => {
    const read = parsePatrolRecording(FILE, text);
    if (!read.ok) throw new Error(read.message);
    const edited = JSON.parse(readFileSync('machines/patrol.json', 'utf8')) as {
      states: Record<string, { on: Record<string, Array<{ target?: string }>> }>;
    };
    edited.states.checkingAssessments!.on.ASSESSMENTS_CHECKED![1]!.target = 'recording';
    const { divergences } = replayPatrolSteps(read.recording.steps, createPatrolMachine(edited));
    expect(divergences[0]).toMatchObject({ event: 'ASSESSMENTS_CHECKED', replayed: { state: 'recording' } });
  });

  it('should name the line and the field of a bad line, and refuse a file with no record', () => {
    const lines = text.trimEnd().split('\n');
    const bad = [...lines];
    bad[3] = bad[3]!.replace('"after":{"state"', '"after":{"stat"');
    const read = parsePatrolRecording('bad.patrol.jsonl', bad.join('\n'));
    expect(read).toMatchObject({ ok: false, line: 4 });
    expect(!read.ok && read.message).toMatch(/^bad\.patrol\.jsonl, line 4: after\.state/);
    const cut = parsePatrolRecording('cut.patrol.jsonl', lines.slice(0, -1).join('\n'));
    expect(cut).toMatchObject({ ok: false, message: 'cut.patrol.jsonl: no "patrol-record" line at the end' });
    expect(isPatrolRecordingText('{"session":"s"}')).toBe(false);
  });
});

describe('a tampered Patrol recording', () => {
  const lines = text.trim().split('\n');
  const edit = (index: number, change: (line: Record<string, any>) => void) => {
    const all = lines.map((l) => JSON.parse(l) as Record<string, any>);
    change(all[index]!);
    return all.map((l) => JSON.stringify(l)).join('\n');
  };

  it('should refuse a run record of another run than its header names, naming the field', () => {
    const read = parsePatrolRecording(
      'x.patrol.jsonl',
      edit(lines.length - 1, (l) => (l.record.id = 'another-run')),
    );
    expect(read).toMatchObject({ ok: false, line: lines.length });
    if (read.ok) return;
    expect(read.message).toMatch(/line \d+: record\.id: "another-run", but the header's runId is "/);
  });

  it('should refuse a record that completed before it started, naming the field', () => {
    const read = parsePatrolRecording(
      'x.patrol.jsonl',
      edit(lines.length - 1, (l) => {
        l.record.completedAt = l.record.startedAt - 5;
        l.record.durationMs = -5;
      }),
    );
    expect(read.ok).toBe(false);
    if (read.ok) return;
    expect(read.message).toMatch(/record\.durationMs: /);
  });
});
