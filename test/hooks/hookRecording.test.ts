import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecordingEntry } from 'assistant-safety';
import { startTestServer, until } from '../server/helpers.js';
import { edit, events, read } from './fixtures.js';
import { bundleHook, decisionOf, runHook } from './hookProcess.js';

/*
 * Watching a coding agent: each hook session writes its recording (JSON Lines, one file per
 * session, in the state folder's recordings/ or --record DIR), and --live streams the same
 * entries to the app's hub, where a developer follows the session as it goes.
 */

let bundle: string;
let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  bundle = bundleHook();
  server = await startTestServer();
}, 60_000);
afterAll(async () => {
  await server?.close();
});

describe('hook recordings', () => {
  it('writes one JSON Lines file per session and streams each event to a real local hub', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hook-rec-'));
    const record = join(dir, 'watch');
    const e = events('watched');
    // The URL without its token, which the hook takes from its environment (a command line is not secret).
    const args = ['--record', record, '--live', `${server.origin}/`];
    const env = { ASSISTANT_SAFETY_LIVE_TOKEN: server.token };
    expect(decisionOf(await runHook(bundle, dir, e.pre('Read', read(), 'r1'), args, env))).toEqual({
      decision: 'allow',
    });
    expect((await runHook(bundle, dir, e.post('Read', read(), 'r1'), args, env)).code).toBe(0);
    const denied = await runHook(bundle, dir, e.pre('Edit', edit('/home/dev/repo/src/other.ts'), 'w1'), args, env);
    expect(decisionOf(denied)).toEqual({ decision: 'deny', reasonCode: 'TARGET_NOT_VALIDATED' });
    expect(denied.stderr).toBe('');

    const lines = readFileSync(join(record, 'watched.jsonl'), 'utf8').trim().split('\n');
    const entries = lines.map((l) => RecordingEntry.parse(JSON.parse(l)));
    const calls = entries.filter((x) => x.call.type === 'beginToolCall').map((x) => (x.call as { id: string }).id);
    expect(calls).toEqual(['r1', 'w1']);

    // The hub has every entry of the session, the blocked Edit included.
    await until(() => (server.hub.entriesOf('watched')?.length ?? 0) >= entries.length);
    const live = server.hub.entriesOf('watched')!;
    expect(live.map((x) => x.call.type)).toEqual(entries.map((x) => x.call.type));
    expect(live.some((x) => x.call.type === 'beginToolCall' && (x.call as { id: string }).id === 'w1')).toBe(true);
  }, 60_000);
});
