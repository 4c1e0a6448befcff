import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsePatrolRecording, replayPatrolSteps } from '../../src/patrol/index.js';
import { TOKEN_HEADER } from '../../src/live/protocol.js';
import { DEMO_SCENARIOS } from '../../examples/demoScenarios.js';
import { MAX_LISTED_SESSIONS } from '../../viz/components/LiveSessionList.js';
import { root, screenshot, serveAppInBrowser, startAgent, watchLiveSessions } from './helpers.js';

// Exactly what `npm start` runs (without npm around it): `node --import tsx scripts/start.ts`.
const START = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts
  .start;
const app = serveAppInBrowser({ mode: 'live' });

describe('the live demo as a first impression', () => {
  it('should show the demo as a finite set of labelled sessions, newest first, under a heading that stays', async () => {
    await app.page.setViewportSize({ width: 1280, height: 720 });
    const agent = startAgent(app.served.url, ['--delay', '0', '--name', 'demo']);
    expect(await agent.done).toBe(0);
    const items = app.page.getByTestId('live-session');
    await expect.poll(() => items.count(), { timeout: 15_000 }).toBe(DEMO_SCENARIOS.length);
    expect(DEMO_SCENARIOS.length).toBeLessThanOrEqual(MAX_LISTED_SESSIONS);
    // Labelled with the scenario's title, the newest (the last scenario run) first.
    // The order is the sessions' own start times, whatever order their sockets reached the hub in.
    await expect
      .poll(() => items.locator('.live-id').allTextContents(), { timeout: 15_000 })
      .toEqual([...DEMO_SCENARIOS].reverse().map((s) => `demo: ${s.title}`));
    expect(await app.page.getByTestId('live-legend').textContent()).toMatch(/agent connected.*session ended/);
    // The list scrolls under the heading and the follow control, which stay where they are.
    const head = app.page.locator('.live-head');
    const before = await head.boundingBox();
    await app.page.getByTestId('live-list').evaluate((el) => (el.scrollTop = el.scrollHeight));
    expect(await head.boundingBox()).toEqual(before);
    await screenshot(app.page, 'live-demo-list');
    expect(app.errors).toEqual([]);
  });

  it('should stop npm start on Ctrl-C without "lost the connection… will retry" noise', async () => {
    // The tsx CLI (`tsx scripts/start.ts`) relayed Ctrl-C to its child and, when that child was slow
    // to answer on a busy machine, killed it and exited 130: the start script runs node directly.
    const [node, ...args] = START.split(' ');
    expect(node).toBe('node');
    const child = spawn(process.execPath, args, {
      cwd: root,
      env: { ...process.env, PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // its own process group, as a terminal's Ctrl-C reaches server and agent alike
    });
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += String(d)));
    child.stderr!.on('data', (d: Buffer) => (out += String(d)));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    // A fresh clone builds the library first (npm start does when dist/ is missing): the bound only catches a hang.
    await expect.poll(() => out, { timeout: 100_000 }).toMatch(/live-agent: running the demo agent/);
    // A session under way (the hub lists one with its agent connected): Ctrl-C lands mid-demo.
    const url = out.split('\n').find((l) => /^http:\/\/127\.0\.0\.1:\d+\/\?token=/.test(l))!;
    const hub = watchLiveSessions(url);
    await hub.until((sessions) => sessions.some((s) => s.connected && s.events > 0));
    hub.close();
    // The Patrol demo beside it: its recording served, with the URL that opens it on the Patrol machine.
    expect(out).toMatch(/The Patrol demo: 4 signals, 1 missed by the model and caught by the evaluation pass/);
    const patrolUrl = new URL(out.split('\n').find((l) => l.includes('recording=patrol-demo.patrol.jsonl'))!);
    const served = await fetch(`${patrolUrl.origin}/api/recordings/patrol-demo.patrol.jsonl`, {
      headers: { [TOKEN_HEADER]: patrolUrl.searchParams.get('token')! },
    });
    const read = parsePatrolRecording('patrol-demo.patrol.jsonl', await served.text());
    expect(read.ok && replayPatrolSteps(read.recording.steps).divergences).toEqual([]);
    process.kill(-child.pid!, 'SIGINT');
    expect(await exited).toBe(0);
    expect(out).toMatch(/the demo plays its \d+ scenarios once/);
    // A link to the target-binding session, which the app follows once the agent streams it.
    expect(out).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]+&mode=live&session=demo-target-binding$/m);
    expect(out).not.toMatch(/lost the connection|will retry/);
  }, 180_000);
});
