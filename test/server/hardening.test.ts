import { request } from 'node:http';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { root, startTestServer } from './helpers.js';

let server: Awaited<ReturnType<typeof startTestServer>>;
let machinesDir: string;
const outside = join(mkdtempSync(join(tmpdir(), 'outside-')), 'secret.json');

beforeAll(async () => {
  machinesDir = mkdtempSync(join(tmpdir(), 'hardening-machines-'));
  cpSync(join(root, 'machines', 'assistant-safety.json'), join(machinesDir, 'assistant-safety.json'));
  writeFileSync(outside, 'root:x:0:0:root:/root:/bin/bash\n');
  symlinkSync(outside, join(machinesDir, 'evil.json'));
  mkdirSync(join(machinesDir, 'folder.json'));
  server = await startTestServer({ machinesDir });
  symlinkSync(outside.replace('.json', '.jsonl'), join(server.dir, 'recordings', 'link.jsonl'));
  writeFileSync(outside.replace('.json', '.jsonl'), 'outside\n');
});
afterAll(() => server.close());

const token = () => ({ 'x-assistant-safety-token': server.token });

/** A raw request: the exact bytes of the path and headers, as a client can send them. */
function raw(path: string, headers: [string, string][]): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path, method: 'GET', setHost: false }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += String(d)));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    for (const [k, v] of headers) req.appendHeader(k, v);
    req.on('error', reject);
    req.end();
  });
}

describe('names, paths and headers', () => {
  it('should answer 400, not 500, to a path that is not valid percent-encoding', async () => {
    for (const path of ['/%E0', '/%E0%A4%A', '/assets/%FF.js', `/api/recordings/%E0.jsonl`, '/api/machines/%E0']) {
      const res = await fetch(server.origin + path, { headers: token() });
      expect(res.status, path).toBe(400);
    }
  });

  it('should not serve or list a machine through a symlink, nor quote its bytes', async () => {
    const one = await fetch(`${server.origin}/api/machines/evil`, { headers: token() });
    expect(one.status).toBe(404);
    const list = await fetch(`${server.origin}/api/machines`, { headers: token() });
    const text = await list.text();
    expect(text).not.toContain('root:x');
    expect(text).not.toContain('evil.json');
    const recordings = await (await fetch(`${server.origin}/api/recordings`, { headers: token() })).text();
    expect(recordings).not.toContain('link.jsonl');
    expect((await fetch(`${server.origin}/api/recordings/link.jsonl`, { headers: token() })).status).toBe(404);
  });

  it('should answer 404 to a machine whose file is a folder, not 500', async () => {
    const res = await fetch(`${server.origin}/api/machines/folder`, { headers: token() });
    expect(res.status).toBe(404);
    const list = await fetch(`${server.origin}/api/machines`, { headers: token() });
    expect(list.status).toBe(200);
    expect(await list.text()).not.toContain('folder.json');
  });

  it('should refuse a PUT whose machine has a __proto__ key with 4xx, writing nothing', async () => {
    const loaded = (await (
      await fetch(`${server.origin}/api/machines/assistant-safety`, { headers: token() })
    ).json()) as {
      text: string;
      version: string;
    };
    const body = `{"baseVersion":${JSON.stringify(loaded.version)},"definition":${loaded.text.replace('"states": {', '"states": {"__proto__": {"x": 1},')}}`;
    expect(body).toContain('__proto__');
    const res = await fetch(`${server.origin}/api/machines/assistant-safety`, {
      method: 'PUT',
      headers: { ...token(), 'content-type': 'application/json' },
      body,
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(await res.text()).toContain('__proto__');
    expect(readFileSync(join(machinesDir, 'assistant-safety.json'), 'utf8')).toBe(loaded.text);
  });

  it('should refuse a request with two Host headers', async () => {
    const host = `127.0.0.1:${server.port}`;
    const once = await raw(`/api/sessions?token=${server.token}`, [['host', host]]);
    expect(once.status).toBe(200);
    const twice = await raw(`/api/sessions?token=${server.token}`, [
      ['host', host],
      ['host', 'evil.example'],
    ]);
    expect(twice.status).toBe(400);
  });
});
