import { describe, expect, it } from 'vitest';
import { createSafetySession, parseRecording, type RecordingEntry } from 'assistant-safety';
import { createInsights } from 'assistant-safety/insights';
import { aggregateRecordingText, ENTRIES_PER_SLICE } from '../../viz/insights/aggregateRecordingText.js';

/*
 * The app's Insights mode on a 440,000-event recording keeps the page
 * answering: the aggregation pauses (yields to the page) after every slice of
 * at most ENTRIES_PER_SLICE lines or entries. Measured in events between
 * pauses, not in time: what the page waits for between two chances to handle
 * input is bounded by the slice, whatever the machine's speed.
 */

const EVENTS = 440_000;

/** A recording of EVENTS entries: reads, writes, verifications and blocks, in a few sessions. */
function bigRecording(): string {
  const lines: string[] = [];
  const recorder = { record: (e: RecordingEntry) => void lines.push(JSON.stringify(e)) };
  let t = 0;
  for (let s = 0; lines.length < EVENTS; s++) {
    const session = createSafetySession({ id: `s${s}`, recorder, now: () => t++ });
    session.targetEstablished();
    for (let i = 0; i < 5000 && lines.length < EVENTS - 8; i++) {
      session.beginToolCall({ id: `w${i}`, kind: 'write', tool: 'restart_vm' });
      session.endToolCall({ id: `w${i}`, ok: true });
      session.beginToolCall({ id: `x${i}`, kind: 'write', tool: 'restart_vm' }); // blocked: unverified
      session.beginToolCall({ id: `r${i}`, kind: 'read', tool: 'status' });
      session.endToolCall({ id: `r${i}`, ok: true });
    }
  }
  return lines.slice(0, EVENTS).join('\n') + '\n';
}

describe('Insights on a 440,000-event recording', () => {
  const text = bigRecording();

  it('should pause for the page at least every slice of entries, and aggregate what stats aggregates', async () => {
    const insights = createInsights({ details: true });
    let since = 0;
    let most = 0;
    let pauses = 0;
    const counting = {
      add(entry: RecordingEntry, source?: string) {
        since++;
        return insights.add(entry, source);
      },
    };
    const result = await aggregateRecordingText(
      new Proxy(insights, { get: (target, p) => (p === 'add' ? counting.add : Reflect.get(target, p)) }),
      text,
      'big.jsonl',
      {
        pause: async () => {
          most = Math.max(most, since);
          since = 0;
          pauses++;
        },
      },
    );
    expect(result).toEqual({ status: 'added', entries: EVENTS });
    // Every entry was parsed then added: 2 × EVENTS units of work, cut into slices.
    expect(pauses).toBeGreaterThanOrEqual(Math.floor((2 * EVENTS) / ENTRIES_PER_SLICE) - 1);
    expect(most).toBeLessThanOrEqual(ENTRIES_PER_SLICE);
    const reference = createInsights({ details: true });
    for (const entry of parseRecording(text)) reference.add(entry, 'big.jsonl');
    expect(insights.summary()).toEqual(reference.summary());
    console.log(`440,000 events: ${pauses} pauses, at most ${most} entries between two`);
  }, 120_000);

  it('should leave a file with a bad line out whole, and skip a torn last line', async () => {
    const insights = createInsights();
    const bad = text.split('\n').slice(0, 10).join('\n') + '\n{"not":"an entry"}\n';
    expect(await aggregateRecordingText(insights, bad, 'bad.jsonl', { pause: async () => undefined })).toEqual({
      status: 'refused',
      line: 11,
    });
    expect(insights.summary().entries).toBe(0);
    const torn = text.split('\n').slice(0, 10).join('\n') + '\n{"v":1,"ses';
    expect(await aggregateRecordingText(insights, torn, 'torn.jsonl', { pause: async () => undefined })).toEqual({
      status: 'added',
      entries: 10,
    });
  });

  it('should stop once aborted', async () => {
    const controller = new AbortController();
    const result = await aggregateRecordingText(createInsights(), text, 'big.jsonl', {
      signal: controller.signal,
      pause: async () => controller.abort(),
    });
    expect(result).toEqual({ status: 'aborted' });
  });
});
