import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MachineList, RecordingList } from '../../src/live/protocol.js';
import { parseRecording } from '../../src/index.js';
import { startTestServer } from './helpers.js';

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer();
  symlinkSync(join(server.dir, 'secret.jsonl'), join(server.dir, 'recordings', 'link.jsonl'));
});
afterAll(() => server.close());

const get = (path: string) => fetch(server.origin + path, { headers: { 'x-assistant-safety-token': server.token } });

describe('recordings and machines over HTTP', () => {
  it('should list the .jsonl files of the recordings folder', async () => {
    const list = RecordingList.parse(await (await get('/api/recordings')).json());
    expect(list.recordings.map((r) => r.name)).toContain('blocked.jsonl');
  });

  it('should serve a recording that parses', async () => {
    const res = await get('/api/recordings/blocked.jsonl');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/x-ndjson');
    expect(parseRecording(await res.text())).toHaveLength(11);
  });

  it('should refuse names that leave the recordings folder or are not .jsonl', async () => {
    for (const [path, status] of [
      ['/api/recordings/..%2Fsecret.jsonl', 400],
      ['/api/recordings/%2E%2E%2Fsecret.jsonl', 400],
      ['/api/recordings/..%5Csecret.jsonl', 400],
      ['/api/recordings/%2Fetc%2Fpasswd', 400],
      ['/api/recordings/blocked.json', 400],
      ['/api/recordings/.hidden.jsonl', 400],
      ['/api/recordings/%E0%A4%A', 400],
      ['/api/recordings/missing.jsonl', 404],
      // A symlink inside the folder that points outside it.
      ['/api/recordings/link.jsonl', 404],
    ] as const) {
      const res = await get(path);
      expect(res.status, path).toBe(status);
      expect(await res.text()).not.toContain('outside the recordings folder');
    }
  });

  it('should not serve files outside the app folder', async () => {
    for (const path of ['/../recordings/blocked.jsonl', '/%2E%2E/secret.jsonl', '/..%2Fsecret.jsonl']) {
      const res = await get(path);
      expect([400, 404]).toContain(res.status);
      expect(await res.text()).not.toContain('outside the recordings folder');
    }
  });

  it('should list the machines, the safety machine first', async () => {
    const list = MachineList.parse(await (await get('/api/machines')).json());
    expect(list.machines[0]!.file).toBe('assistant-safety.json');
  });
});
