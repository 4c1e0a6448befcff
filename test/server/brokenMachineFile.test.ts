import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MachineList, TOKEN_HEADER } from '../../src/live/protocol.js';
import { jsonSyntaxError } from '../../src/node/jsonSyntaxError.js';
import { main } from '../../src/cli/main.js';
import { startTestServer } from './helpers.js';

/*
 * A machine file with a JSON syntax error (a comma deleted by hand) is said to be not JSON, with the
 * line and column where it breaks: before, the app judged a stand-in object as a machine and listed
 * missing fields (id, initial, guards…), and `check` named a character position.
 */
const SHIPPED = readFileSync(join('machines', 'assistant-safety.json'), 'utf8');
/** The shipped machine with the comma after the first field of line 3 deleted. */
function broken(): { text: string; line: number } {
  const lines = SHIPPED.split('\n');
  lines[2] = lines[2]!.replace(/,$/, '');
  return { text: lines.join('\n'), line: 4 };
}

let server: Awaited<ReturnType<typeof startTestServer>> | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('a machine file that is not JSON', () => {
  it('should say where the JSON breaks, by line and column', () => {
    const { text, line } = broken();
    let error: unknown;
    try {
      JSON.parse(text);
    } catch (e) {
      error = e;
    }
    expect(jsonSyntaxError(text, error)).toMatch(new RegExp(`^not JSON at line ${line}, column \\d+: Expected`));
    expect(jsonSyntaxError('x', new Error('odd'))).toBe('not JSON: odd');
  });

  it('should say a file cut off before its JSON ends is so at its last line, not at no place at all', () => {
    // Node's message for a cut-off text names no position ("Unexpected end of JSON input").
    const text = '{\n  "id": "cut",\n  "states":\n';
    let error: unknown;
    try {
      JSON.parse(text);
    } catch (e) {
      error = e;
    }
    expect(jsonSyntaxError(text, error)).toMatch(
      /^not JSON at line 4, column 1 \(the end of the file\): Unexpected end/,
    );
  });

  it('should be listed by the server with that error, not as a machine with missing fields', async () => {
    const machinesDir = join(mkdtempSync(join(tmpdir(), 'broken-machine-')), 'machines');
    cpSync('machines', machinesDir, { recursive: true });
    writeFileSync(join(machinesDir, 'malformed.json'), broken().text);
    server = await startTestServer({ machinesDir });
    const url = new URL(server.url);
    const res = await fetch(`${url.origin}/api/machines`, { headers: { [TOKEN_HEADER]: server.token } });
    const list = MachineList.parse(await res.json());
    const entry = list.machines.find((m) => m.file === 'malformed.json')!;
    expect(entry.json).toBeNull();
    expect(entry.error).toMatch(/^not JSON at line 4, column \d+: /);
    expect(list.machines.find((m) => m.file === 'assistant-safety.json')!.error).toBeUndefined();
  });

  it('should make check name the line and column', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'broken-check-')), 'machine.json');
    writeFileSync(file, broken().text);
    const err: string[] = [];
    expect(await main(['check', file], { out: () => undefined, err: (t) => err.push(t) })).toBe(2);
    expect(err.join('\n')).toMatch(
      new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: not JSON at line 4, column \\d+: `),
    );
  });
});
