import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentVersion } from '../../src/node/machineFiles.js';
import type { RunningServer } from '../../src/server/startServer.js';
import { root, startTestServer } from './helpers.js';

let server: RunningServer;
let machinesDir: string;
const file = () => join(machinesDir, 'assistant-safety.json');
const onDisk = () => readFileSync(file(), 'utf8');

beforeAll(async () => {
  machinesDir = mkdtempSync(join(tmpdir(), 'machines-endpoints-'));
  cpSync(join(root, 'machines', 'assistant-safety.json'), file());
  server = await startTestServer({ machinesDir });
});
afterAll(() => server.close());

const api = (path: string, init: RequestInit = {}, token: string | null = server.token) =>
  fetch(server.origin + path, {
    ...init,
    headers: {
      ...(token !== null && { 'x-assistant-safety-token': token }),
      ...(init.body !== undefined && { 'content-type': 'application/json' }),
      ...(init.headers as Record<string, string>),
    },
  });

const put = (body: unknown, token: string | null = server.token, name = 'assistant-safety') =>
  api(`/api/machines/${name}`, { method: 'PUT', body: JSON.stringify(body) }, token);

async function load() {
  const res = await api('/api/machines/assistant-safety');
  expect(res.status).toBe(200);
  return (await res.json()) as { text: string; json: any; version: string; layout: unknown; layoutVersion: string };
}

describe('the machine endpoints', () => {
  it('should return a machine with its text, JSON, version and layout', async () => {
    const m = await load();
    expect(m.text).toBe(onDisk());
    expect(m.version).toBe(contentVersion(onDisk()));
    expect(m.json.initial).toBe('RESOLVING');
    expect(m.layout).toBeNull();
    expect(m.layoutVersion).toBe('absent');
  });

  it('should say where a machine file stops being JSON, with its text to mend', async () => {
    const broken = '{\n  "id": "broken",\n  "initial": "A",,\n}\n';
    writeFileSync(join(machinesDir, 'broken.json'), broken);
    const res = await api('/api/machines/broken');
    expect(res.status).toBe(200);
    const m = (await res.json()) as { text: string; json: unknown; error?: string };
    expect(m.json).toBeNull();
    expect(m.text).toBe(broken);
    expect(m.error).toMatch(/^not JSON at line 3, column \d+/);
    expect(((await load()) as { error?: string }).error).toBeUndefined();
  });

  it('should refuse reads and writes without the token (401) or with a wrong one (403), writing nothing', async () => {
    const before = onDisk();
    const m = await load();
    expect((await api('/api/machines/assistant-safety', {}, null)).status).toBe(401);
    const body = { definition: m.json, baseVersion: m.version };
    expect((await put(body, null)).status).toBe(401);
    expect((await put(body, 'f'.repeat(64))).status).toBe(403);
    const foreign = await api('/api/machines/assistant-safety', {
      method: 'PUT',
      body: JSON.stringify(body),
      headers: { origin: 'http://evil.example' },
    });
    expect(foreign.status).toBe(403);
    expect(onDisk()).toBe(before);
  });

  it('should save at the loaded version, atomically, with the layout, and answer the new version', async () => {
    const m = await load();
    m.json.states.READING.description = 'A target is established (edited).';
    const res = await put({
      definition: m.json,
      layout: { version: 1, nodes: { READING: { x: 10, y: 20 } } },
      baseVersion: m.version,
    });
    expect(res.status).toBe(200);
    const saved = (await res.json()) as { version: string; text: string };
    expect(saved.text).toBe(onDisk());
    expect(saved.version).toBe(contentVersion(onDisk()));
    expect(JSON.parse(onDisk()).states.READING.description).toBe('A target is established (edited).');
    expect(JSON.parse(readFileSync(join(machinesDir, 'assistant-safety.layout.json'), 'utf8')).nodes.READING).toEqual({
      x: 10,
      y: 20,
    });
    expect((await load()).layout).toEqual({ version: 1, nodes: { READING: { x: 10, y: 20 } } });
    expect(readdirSync(machinesDir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('should refuse with 409 and a clear message when the file changed since it was loaded, overwriting nothing', async () => {
    const m = await load();
    writeFileSync(file(), onDisk().replace('A target is established', 'Changed by someone else'));
    const theirs = onDisk();
    const res = await put({ definition: m.json, baseVersion: m.version });
    expect(res.status).toBe(409);
    const body = (await res.json()) as { code: string; error: string };
    expect(body.code).toBe('CONFLICT');
    expect(body.error).toMatch(/changed on disk since it was loaded.*nothing was saved/);
    expect(onDisk()).toBe(theirs);
  });

  it('should refuse with 409 a layout saved over a layout file that changed since it was loaded', async () => {
    const m = await load();
    writeFileSync(join(machinesDir, 'assistant-safety.layout.json'), '{ "version": 1, "nodes": {} }\n');
    const before = onDisk();
    const res = await put({
      definition: m.json,
      layout: { version: 1, nodes: { WRITING: { x: 1, y: 1 } } },
      baseVersion: m.version,
      baseLayoutVersion: m.layoutVersion,
    });
    expect(res.status).toBe(409);
    expect(((await res.json()) as { error: string }).error).toMatch(/layout\.json changed on disk since it was loaded/);
    expect(readFileSync(join(machinesDir, 'assistant-safety.layout.json'), 'utf8')).toBe(
      '{ "version": 1, "nodes": {} }\n',
    );
    expect(onDisk()).toBe(before);
  });

  it('should refuse a malformed machine with 422 and its issues, writing nothing', async () => {
    const m = await load();
    const before = onDisk();
    m.json.states.READING.on.BEGIN_CALL[0].guard = 'isWirte';
    m.json.states.READING.on.BEGIN_CALL[0].target = 'WRTING';
    const res = await put({ definition: m.json, baseVersion: m.version });
    expect(res.status).toBe(422);
    const body = (await res.json()) as { code: string; issues: { path: (string | number)[]; message: string }[] };
    expect(body.code).toBe('INVALID_MACHINE');
    expect(body.issues.map((i) => i.path)).toEqual(
      expect.arrayContaining([
        ['states', 'READING', 'on', 'BEGIN_CALL', 0, 'guard'],
        ['states', 'READING', 'on', 'BEGIN_CALL', 0, 'target'],
      ]),
    );
    expect(onDisk()).toBe(before);
    const badLayout = await put({ definition: (await load()).json, layout: { nodes: 1 }, baseVersion: m.version });
    expect(badLayout.status).toBe(422);
    expect(((await badLayout.json()) as { code: string }).code).toBe('INVALID_LAYOUT');
  });

  it('should refuse bad names and path traversal with 400 and never touch a file outside the folder', async () => {
    const m = await load();
    const body = { definition: m.json, baseVersion: 'absent' };
    for (const name of ['..%2Fevil', '..%2F..%2Ftmp%2Fevil', '.hidden', 'a%2Fb', '%E0%A4%A']) {
      const res = await put(body, server.token, name);
      expect(res.status, name).toBe(400);
      expect((await api(`/api/machines/${name}`)).status, name).toBe(400);
    }
    expect(readdirSync(join(machinesDir, '..')).includes('evil.json')).toBe(false);
    expect((await api('/api/machines/nope')).status).toBe(404);
  });

  it('should refuse a body that is not JSON, not declared as JSON, or misses the base version, with 400', async () => {
    const m = await load();
    const raw = (body: string, type = 'application/json') =>
      fetch(`${server.origin}/api/machines/assistant-safety`, {
        method: 'PUT',
        body,
        headers: { 'x-assistant-safety-token': server.token, 'content-type': type },
      });
    const broken = await raw('{\n  "definition": {,}\n}');
    expect(broken.status).toBe(400);
    // Where it breaks, not only that it does (before: "the body is not JSON").
    expect(((await broken.json()) as { error: string }).error).toMatch(/^the body is not JSON at line 2, column 18: /);
    expect((await raw(JSON.stringify({ definition: m.json, baseVersion: m.version }), 'text/plain')).status).toBe(400);
    const missing = await put({ definition: m.json });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { error: string }).error).toMatch(/baseVersion/);
    expect((await put({ definition: m.json, baseVersion: m.version, extra: 1 })).status).toBe(400);
    expect((await api('/api/machines/assistant-safety', { method: 'DELETE' })).status).toBe(405);
  });

  it('should preview a save as the text it would write beside the file on disk, writing nothing', async () => {
    const m = await load();
    const before = onDisk();
    m.json.states.WRITING.description = 'Previewed only.';
    const res = await api('/api/machines/assistant-safety/preview', {
      method: 'POST',
      body: JSON.stringify({ definition: m.json, baseVersion: m.version }),
    });
    expect(res.status).toBe(200);
    const p = (await res.json()) as { currentText: string; proposedText: string; conflict: boolean };
    expect(p.currentText).toBe(before);
    expect(p.proposedText).toContain('"Previewed only."');
    expect(p.conflict).toBe(false);
    expect(onDisk()).toBe(before);
    const stale = await api('/api/machines/assistant-safety/preview', {
      method: 'POST',
      body: JSON.stringify({ definition: m.json, baseVersion: 'old' }),
    });
    expect(((await stale.json()) as { conflict: boolean }).conflict).toBe(true);
  });
});
