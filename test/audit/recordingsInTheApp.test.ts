import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseRecording } from 'assistant-safety';
import { RecordingList } from 'assistant-safety/live';
import { auditFiles } from 'assistant-safety/node';
import { startTestServer } from '../server/helpers.js';
import { generateTraces, openaiRow } from './traceModel.js';

/*
 * The recordings an audit writes are what `serve --recordings DIR` offers the app: every one is
 * listed and served, and parses, whatever characters the trace ids held.
 */

let server: Awaited<ReturnType<typeof startTestServer>> | undefined;
afterAll(() => server?.close());

describe('audit recordings in the app', () => {
  it('should be listed and served by the server, each one parsing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'audit-app-'));
    const traces = generateTraces(5, 2).map((t, i) => ({
      ...t,
      id: ['.hidden', '-dash', 'a/b c', 'ünï', 'plain'][i]!,
    }));
    writeFileSync(join(dir, 'export.jsonl'), traces.map((t) => JSON.stringify(openaiRow(t, true))).join('\n'));
    const recordings = join(dir, 'recordings');
    const report = await auditFiles([join(dir, 'export.jsonl')], { recordings });
    expect(report.traces).toBe(5);
    server = await startTestServer({ recordingsDir: recordings });
    const get = (path: string) =>
      fetch(server!.origin + path, { headers: { 'x-assistant-safety-token': server!.token } });
    const list = RecordingList.parse(await (await get('/api/recordings')).json());
    expect(list.recordings).toHaveLength(5);
    const sessions = [];
    for (const { name } of list.recordings) {
      const res = await get(`/api/recordings/${encodeURIComponent(name)}`);
      expect(res.status, name).toBe(200);
      sessions.push(parseRecording(await res.text())[0]!.session);
    }
    expect(sessions.sort()).toEqual(traces.map((t) => t.id).sort());
  });
});
