import { describe, expect, it } from 'vitest';
import { createSafetySession } from 'assistant-safety';
import { createAdmissionQueue } from '../../src/mcp/admissionQueue.js';
import { questionOf } from '../../src/mcp/elicitation.js';
import { createCancelHolds, createOwnRequests, createRequestTracker } from '../../src/mcp/requestTracking.js';

/* The gateway's pieces, each alone: request tracking, cancel holds, own requests, the admission queue, the elicitation question. */

describe('the gateway pieces alone', () => {
  it('should track a request with its progress token and forget both when untracked', () => {
    const tracker = createRequestTracker<string>();
    tracker.track({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { _meta: { progressToken: 't' } } });
    expect(tracker.has('n:7')).toBe(true);
    expect(tracker.has('s:7')).toBe(false);
    expect(tracker.requestOfProgress('t')).toBe(7);
    expect(tracker.untrack(7)?.method).toBe('tools/call');
    expect(tracker.requestOfProgress('t')).toBeUndefined();
  });

  it('should retire a held id when its grace ends, and give back a value taken in time', async () => {
    const holds = createCancelHolds<string>();
    const expired: string[] = [];
    const ended = new Promise<void>((resolve) =>
      holds.hold('n:1', 'a', 10, (v) => {
        expired.push(v);
        resolve();
      }),
    );
    holds.hold('n:2', 'b', 60_000, (v) => expired.push(v));
    expect(holds.isRetired('n:1')).toBe(false);
    expect(holds.take('n:2')).toBe('b');
    await ended;
    expect(expired).toEqual(['a']);
    expect(holds.isRetired('n:1')).toBe(true);
    expect(holds.isTaken('n:2')).toBe(false);
  });

  it('should route an answer to its own request, and resolve undefined when none comes in time', async () => {
    const own = createOwnRequests('me:');
    const sent: string[] = [];
    const first = own.request(60_000, async (id) => void sent.push(id));
    expect(own.owns(sent[0])).toBe(true);
    expect(own.owns('other')).toBe(false);
    own.answer({ jsonrpc: '2.0', id: sent[0]!, result: { ok: 1 } });
    expect(await first).toEqual({ jsonrpc: '2.0', id: sent[0], result: { ok: 1 } });
    expect(await own.request(10, async () => undefined)).toBeUndefined();
  });

  it('should admit a call at once when nothing waits, and after what waits otherwise', async () => {
    const queue = createAdmissionQueue();
    const order: string[] = [];
    let release!: () => void;
    queue.run(() => {
      order.push('first');
      return new Promise<void>((r) => (release = r));
    });
    expect(queue.busy).toBe(true);
    queue.run(() => void order.push('second'));
    expect(order).toEqual(['first']);
    release();
    await new Promise((r) => setTimeout(r, 0));
    expect(order).toEqual(['first', 'second']);
    expect(queue.busy).toBe(false);
  });

  it('should name the tool, its targets and what is missing in the elicitation question', () => {
    const session = createSafetySession({ targets: 'bind' });
    const block = session.beginToolCall({ id: '1', kind: 'write', tool: 'restart_vm', targets: ['vm-9'] })!;
    const question = questionOf(block, 'restart_vm') as { message: string };
    expect(question.message).toContain('"restart_vm" on vm-9');
    expect(question.message).toContain(block.reasonCode);
    expect(question.message).toContain('no validated target');
  });
});
