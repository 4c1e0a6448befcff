import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/startServer.js';
import { root, startTestServer } from './helpers.js';

let server: RunningServer;
let machinesDir: string;

beforeAll(async () => {
  machinesDir = mkdtempSync(join(tmpdir(), 'patrol-save-'));
  cpSync(join(root, 'machines', 'patrol.json'), join(machinesDir, 'patrol.json'));
  cpSync(join(root, 'machines', 'assistant-safety.json'), join(machinesDir, 'assistant-safety.json'));
  server = await startTestServer({ machinesDir });
});
afterAll(() => server.close());

const api = (path: string, init: RequestInit = {}) =>
  fetch(server.origin + path, {
    ...init,
    headers: {
      'x-assistant-safety-token': server.token,
      ...(init.body !== undefined && { 'content-type': 'application/json' }),
    },
  });

describe('saving a Patrol machine from the editor', () => {
  it("should validate patrol.json with the Patrol kind's registries and save an edit", async () => {
    const loaded = (await (await api('/api/machines/patrol')).json()) as { json: any; version: string };
    const definition = structuredClone(loaded.json);
    definition.states.reconciling.description = 'Resolve the findings the run no longer sees.';
    const preview = await api('/api/machines/patrol/preview', {
      method: 'POST',
      body: JSON.stringify({ definition, baseVersion: loaded.version }),
    });
    expect(preview.status).toBe(200);
    const saved = await api('/api/machines/patrol', {
      method: 'PUT',
      body: JSON.stringify({ definition, baseVersion: loaded.version }),
    });
    expect(saved.status).toBe(200);
    expect(JSON.parse(readFileSync(join(machinesDir, 'patrol.json'), 'utf8')).states.reconciling.description).toBe(
      'Resolve the findings the run no longer sees.',
    );
  });

  it("should refuse a safety guard in a Patrol machine and the Patrol machine's guards in a safety machine", async () => {
    const patrol = (await (await api('/api/machines/patrol')).json()) as { json: any; version: string };
    patrol.json.guards.isWrite = { description: 'a safety guard' };
    const refused = await api('/api/machines/patrol', {
      method: 'PUT',
      body: JSON.stringify({ definition: patrol.json, baseVersion: patrol.version }),
    });
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as { error: string }).error).toContain('no guard implementation named "isWrite"');
    const safety = (await (await api('/api/machines/assistant-safety')).json()) as { version: string };
    const asSafety = await api('/api/machines/assistant-safety', {
      method: 'PUT',
      body: JSON.stringify({
        definition: JSON.parse(readFileSync(join(machinesDir, 'patrol.json'), 'utf8')),
        baseVersion: safety.version,
      }),
    });
    expect(asSafety.status).toBe(422);
  });
});
