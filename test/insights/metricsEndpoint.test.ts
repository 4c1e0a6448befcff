import { mkdtempSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSafetySession, restoreSafetySession } from 'assistant-safety';
import { createLiveRecorder } from 'assistant-safety/node';
import { startServer, type RunningServer } from 'assistant-safety/server';
import { LIVE_INSIGHTS_PATH, LiveInsights } from 'assistant-safety/insights';
import { main } from '../../src/cli/main.js';

/*
 * `/metrics` of a running server fed by live agents: each agent streams its
 * session's entries to the hub with createLiveRecorder, a scrape finds the
 * series with the values the sessions' calls imply, and a second scrape does
 * not count anything twice.
 */

let server: RunningServer;
const empty = mkdtempSync(join(tmpdir(), 'as-metrics-'));

beforeAll(async () => {
  server = await startServer({ recordingsDir: empty, machinesDir: empty, appDir: empty, metrics: { port: 0 } });
});
afterAll(() => server.close());

/** Every sample of the exposition: `name{labels}` → value. */
function samples(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{.*\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    out.set(`${m[1]}${m[2] ?? ''}`, Number(m[3]));
  }
  return out;
}

const scrape = async () => {
  const response = await fetch(server.metrics!.url);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/plain; version=0.0.4');
  return samples(await response.text());
};

/** Waits until the hub has acknowledged every entry of `live`, then closes it. */
async function delivered(live: ReturnType<typeof createLiveRecorder>): Promise<void> {
  for (let i = 0; i < 500 && !(live.connected && live.pending === 0); i++) await new Promise((r) => setTimeout(r, 10));
  expect(live.pending).toBe(0);
  await live.close();
}

const labels = (record: Record<string, string>) =>
  `{${Object.keys(record)
    .sort()
    .map((k) => `${k}="${record[k]}"`)
    .join(',')}}`;

const blockedWrite = labels({
  assistant_safety_decision: 'blocked',
  assistant_safety_reason_code: 'NO_VALIDATED_TARGET',
  assistant_safety_state: 'RESOLVING',
  assistant_safety_tool_kind: 'write',
  assistant_safety_tool_name: 'restart_vm',
});

async function agentA() {
  const live = createLiveRecorder({ url: server.url, name: 'agent A' });
  let t = 1000;
  const s = createSafetySession({ id: 'agent-a', now: () => t, recorder: live });
  s.beginToolCall({ id: 'w0', kind: 'write', tool: 'restart_vm' });
  s.beginToolCall({ id: 'r1', kind: 'resolve', tool: 'find_vm' });
  s.endToolCall({ id: 'r1', ok: true });
  s.beginToolCall({ id: 'w1', kind: 'write', tool: 'restart_vm' });
  t = 2000;
  s.endToolCall({ id: 'w1', ok: true });
  s.canFinalAnswer();
  s.beginToolCall({ id: 'r2', kind: 'read', tool: 'status' });
  t = 5000;
  s.endToolCall({ id: 'r2', ok: true });
  await delivered(live);
}

async function agentB() {
  const live = createLiveRecorder({ url: server.url, name: 'agent B' });
  const s = createSafetySession({ id: 'agent-b', now: () => 0, recorder: live });
  s.recordLoopBlock({ id: 'q1', kind: 'user_input', tool: 'ask_user', code: 'LOOK_BEFORE_ASKING' });
  s.beginToolCall({ id: 'w0', kind: 'write', tool: 'restart_vm' });
  await delivered(live);
  return s;
}

describe('serve --metrics', () => {
  it('should expose the series of the live sessions with the values their calls imply', async () => {
    await Promise.all([agentA(), agentB()]);
    const m = await scrape();
    expect(m.get(`assistant_safety_decisions_total${blockedWrite}`)).toBe(2);
    expect(
      m.get(
        `assistant_safety_decisions_total${labels({
          assistant_safety_decision: 'allowed',
          assistant_safety_state: 'VERIFYING',
          assistant_safety_tool_kind: 'read',
          assistant_safety_tool_name: 'status',
        })}`,
      ),
    ).toBe(1);
    expect(
      m.get(
        `assistant_safety_loop_blocks_total${labels({
          assistant_safety_reason_code: 'LOOK_BEFORE_ASKING',
          assistant_safety_state: 'RESOLVING',
          assistant_safety_tool_kind: 'user_input',
          assistant_safety_tool_name: 'ask_user',
        })}`,
      ),
    ).toBe(1);
    const restart = { assistant_safety_reason_code: 'NO_VALIDATED_TARGET', assistant_safety_tool_name: 'restart_vm' };
    expect(m.get(`assistant_safety_recovery_attempts_total${labels(restart)}`)).toBe(2);
    expect(m.get(`assistant_safety_recovery_successes_total${labels(restart)}`)).toBe(1);
    expect(
      m.get(
        `assistant_safety_final_answer_blocks_total${labels({
          assistant_safety_reason_code: 'FINAL_ANSWER_UNVERIFIED',
          assistant_safety_state: 'VERIFYING',
        })}`,
      ),
    ).toBe(1);
    const tool = { assistant_safety_tool_name: 'restart_vm' };
    expect(m.get(`assistant_safety_writes_total${labels(tool)}`)).toBe(1);
    expect(m.get('assistant_safety_writes_unverified')).toBe(0);
    expect(m.get(`assistant_safety_verification_duration_seconds_count${labels(tool)}`)).toBe(1);
    expect(m.get(`assistant_safety_verification_duration_seconds_sum${labels(tool)}`)).toBe(3);
    expect(m.get(`assistant_safety_verification_duration_seconds_bucket${labels({ ...tool, le: '2' })}`)).toBe(0);
    expect(m.get(`assistant_safety_verification_duration_seconds_bucket${labels({ ...tool, le: '5' })}`)).toBe(1);
    expect(m.get('assistant_safety_live_sessions')).toBe(2);
    expect(m.get('assistant_safety_entries_total')).toBe(
      server.hub.entriesOf('agent-a')!.length + server.hub.entriesOf('agent-b')!.length,
    );
  });

  it('should count each entry once across scrapes, and the ones that arrive later', async () => {
    const before = await scrape();
    expect((await scrape()).get(`assistant_safety_decisions_total${blockedWrite}`)).toBe(
      before.get(`assistant_safety_decisions_total${blockedWrite}`),
    );
    const live = createLiveRecorder({ url: server.url, name: 'agent C' });
    const s = createSafetySession({ id: 'agent-c', recorder: live });
    s.beginToolCall({ id: 'w', kind: 'write', tool: 'restart_vm' });
    await delivered(live);
    expect((await scrape()).get(`assistant_safety_decisions_total${blockedWrite}`)).toBe(3);
  });

  it('should answer only GET /metrics with a loopback Host', async () => {
    const get = (path: string, host: string) =>
      new Promise<number>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port: server.metrics!.port, path, headers: { host } }, (res) => {
          res.resume();
          resolve(res.statusCode!);
        });
        req.on('error', reject);
        req.end();
      });
    expect(await get('/metrics', `127.0.0.1:${server.metrics!.port}`)).toBe(200);
    expect(await get('/metrics', `evil.example:${server.metrics!.port}`)).toBe(403);
    expect(await get('/api/sessions', `127.0.0.1:${server.metrics!.port}`)).toBe(404);
  });

  it("should give the app the live sessions' insights behind the token", async () => {
    expect((await fetch(`${server.origin}${LIVE_INSIGHTS_PATH}`)).status).toBe(401);
    const response = await fetch(`${server.origin}${LIVE_INSIGHTS_PATH}?token=${server.token}`);
    const parsed = LiveInsights.safeParse(await response.json());
    expect(parsed.success).toBe(true);
    const { summary, details } = parsed.data!;
    expect(summary.sessions).toBe(3);
    expect(summary.blocked.NO_VALIDATED_TARGET).toBe(3);
    expect(details.blocks.filter((b) => b.session === 'agent-a').map((b) => [b.source, b.seq, b.reasonCode])).toEqual([
      ['live', 1, 'NO_VALIDATED_TARGET'],
      ['live', 6, 'FINAL_ANSWER_UNVERIFIED'],
    ]);
  });

  it('should refuse a --metrics-port that is not a port', async () => {
    const err: string[] = [];
    const code = await main(['serve', '--metrics-port', 'nine'], { out: () => {}, err: (t) => err.push(t) });
    expect(code).toBe(2);
    expect(err.join('\n')).toContain('--metrics-port: not a port: nine');
  });

  it('should not count what a second agent sends into a session another agent owns', async () => {
    // The hub binds a session to the agent that opened it (docs/limits.md): a restored copy streamed by
    // another agent is refused whole, so it can neither add to nor skew the shared session's series.
    const before = (await scrape()).get(`assistant_safety_decisions_total${blockedWrite}`)!;
    const first = createLiveRecorder({ url: server.url, name: 'worker 1' });
    const s1 = createSafetySession({ id: 'shared', recorder: first });
    s1.beginToolCall({ id: 'a', kind: 'write', tool: 'restart_vm' });
    await delivered(first);
    expect((await scrape()).get(`assistant_safety_decisions_total${blockedWrite}`)).toBe(before + 1);
    const refusals: string[] = [];
    const second = createLiveRecorder({ url: server.url, name: 'worker 2', onError: (e) => refusals.push(e.message) });
    const s2 = restoreSafetySession(s1.persist(), { recorder: second });
    s2.beginToolCall({ id: 'b', kind: 'write', tool: 'restart_vm' });
    await expect.poll(() => refusals.join('\n'), { timeout: 10_000 }).toMatch(/belongs to another agent/);
    await second.close();
    expect(server.hub.entriesOf('shared')!.map((e) => e.seq)).toEqual([0, 1]);
    expect((await scrape()).get(`assistant_safety_decisions_total${blockedWrite}`)).toBe(before + 1);
  });
});
