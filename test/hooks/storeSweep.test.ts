import { mkdirSync, mkdtempSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFileSessionStore } from 'assistant-safety/node';

/*
 * SessionStart's sweep and SessionEnd's delete remove only the session folders the store created
 * (they hold its marker file): anything else a person keeps in the state folder survives, however old.
 */

describe('the sweep of the state folder', () => {
  it('removes expired sessions it created, never an unrelated folder', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hook-sweep-'));
    const store = createFileSessionStore({ dir, idleTtlMs: 1000 });
    await store.withSession('old', (s) => void s.beginToolCall({ id: 'r1', kind: 'read', tool: 'Read' }));
    mkdirSync(join(dir, 'notes'));
    writeFileSync(join(dir, 'notes', '1.json'), '{"mine": true}');
    const past = new Date(Date.now() - 3_600_000);
    for (const folder of ['old', 'notes'])
      for (const f of readdirSync(join(dir, folder))) utimesSync(join(dir, folder, f), past, past);

    expect(await store.sweep()).toBe(1);
    expect(readdirSync(dir)).toEqual(['notes']);
    expect(readdirSync(join(dir, 'notes'))).toEqual(['1.json']);

    await store.delete('notes');
    expect(readdirSync(join(dir, 'notes'))).toEqual(['1.json']);
  });
});
