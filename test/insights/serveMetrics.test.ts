import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createSafetySession } from 'assistant-safety';
import { createLiveRecorder } from 'assistant-safety/node';

/*
 * The command itself: `assistant-safety serve --metrics --metrics-port 0` in
 * a child process prints the metrics URL after the app's, and a scrape finds
 * the series of a live agent that streamed to the printed app URL.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
let child: ChildProcess | undefined;

afterAll(
  () =>
    new Promise<void>((done) => {
      if (!child || child.exitCode !== null) return done();
      child.once('exit', () => done());
      child.kill('SIGTERM');
    }),
);

function serveWithMetrics(): Promise<{ app: string; metrics: string }> {
  child = spawn(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'src', 'cli', 'bin.ts'), 'serve', '--port', '0', '--metrics', '--metrics-port', '0'],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    child!.stdout!.on('data', (d: Buffer) => {
      out += String(d);
      const app = /^(http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]+)$/m.exec(out)?.[1];
      const metrics = /(http:\/\/127\.0\.0\.1:\d+\/metrics)$/m.exec(out)?.[1];
      if (app && metrics) resolve({ app, metrics });
    });
    child!.stderr!.on('data', (d: Buffer) => (out += String(d)));
    child!.on('exit', (code) => reject(new Error(`serve exited with ${code}:\n${out}`)));
  });
}

describe('assistant-safety serve --metrics', () => {
  it('should print the metrics URL and count what a live agent streams', async () => {
    const { app, metrics } = await serveWithMetrics();
    const live = createLiveRecorder({ url: app, name: 'cli agent' });
    const s = createSafetySession({ id: 'cli-agent', recorder: live });
    s.beginToolCall({ id: 'w', kind: 'write', tool: 'restart_vm' });
    s.recordLoopBlock({ id: 'q', kind: 'user_input', tool: 'ask_user', code: 'LOOK_BEFORE_ASKING' });
    for (let i = 0; i < 1000 && !(live.connected && live.pending === 0); i++)
      await new Promise((r) => setTimeout(r, 10));
    expect(live.pending).toBe(0);
    await live.close();
    const text = await (await fetch(metrics)).text();
    expect(text).toContain(
      'assistant_safety_decisions_total{assistant_safety_decision="blocked",assistant_safety_reason_code="NO_VALIDATED_TARGET",assistant_safety_state="RESOLVING",assistant_safety_tool_kind="write",assistant_safety_tool_name="restart_vm"} 1\n',
    );
    expect(text).toContain(
      'assistant_safety_loop_blocks_total{assistant_safety_reason_code="LOOK_BEFORE_ASKING",assistant_safety_state="RESOLVING",assistant_safety_tool_kind="user_input",assistant_safety_tool_name="ask_user"} 1\n',
    );
    expect(text).toContain('assistant_safety_live_sessions 1\n');
  });
});
