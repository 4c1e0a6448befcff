import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parseRecording, replayRecording } from 'assistant-safety';
import { startServer } from 'assistant-safety/server';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const run = promisify(execFile);

/** Runs an example as written (tsx), into a temporary recording; returns its output and the recording's text. */
async function runExample(name: string, ...args: string[]) {
  const out = join(mkdtempSync(join(tmpdir(), 'sdk-example-')), `${name}.jsonl`);
  const { stdout } = await run(process.execPath, ['--import', 'tsx', `examples/${name}.ts`, '--out', out, ...args], {
    cwd: root,
  });
  return { stdout, recording: readFileSync(out, 'utf8') };
}

describe.each(['ai-sdk-agent', 'openai-agents-agent'])('examples/%s.ts', (name) => {
  it('should run offline to the verified answer and write the recording committed in recordings/', async () => {
    const { stdout, recording } = await runExample(name);
    expect(stdout).toContain('NO_VALIDATED_TARGET');
    expect(stdout).toContain('the model is shown FINAL_ANSWER_UNVERIFIED');
    expect(stdout).toContain('final answer: web-01 was restarted and is running again.');
    expect(recording).toBe(readFileSync(join(root, 'recordings', `${name}.jsonl`), 'utf8'));
    const entries = parseRecording(recording);
    const blocks = entries.filter((e) => e.decision === 'blocked').map((e) => e.reasonCode);
    expect(blocks).toEqual(['NO_VALIDATED_TARGET', 'FINAL_ANSWER_UNVERIFIED']);
    expect(replayRecording(entries)).toMatchObject({ final: 'READING', divergences: [] });
  }, 120_000); // a child process loading the SDK: seconds on a busy machine, not a timed assertion

  it('should be offered by the app server and parse as served', async () => {
    const server = await startServer({
      recordingsDir: join(root, 'recordings'),
      machinesDir: join(root, 'machines'),
      appDir: mkdtempSync(join(tmpdir(), 'sdk-app-')),
    });
    try {
      const headers = { 'x-assistant-safety-token': server.token };
      const list = (await (await fetch(`${server.origin}/api/recordings`, { headers })).json()) as {
        recordings: { name: string }[];
      };
      expect(list.recordings.map((r) => r.name)).toContain(`${name}.jsonl`);
      const text = await (await fetch(`${server.origin}/api/recordings/${name}.jsonl`, { headers })).text();
      expect(replayRecording(parseRecording(text)).divergences).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
