import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './runCli.js';

/*
 * `replay` of the Patrol recording that ships in recordings/: replayed on the Patrol machine, step by
 * step. Before, it was read as a safety recording and refused with a list of schema errors.
 */
const SHIPPED = join('recordings', 'patrol-demo.patrol.jsonl');

describe('replay of a Patrol run recording', () => {
  it('should replay it on the Patrol machine with no divergence', async () => {
    const r = await runCli(['replay', SHIPPED]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(
      /^recordings\/patrol-demo\.patrol\.jsonl: a Patrol run recording, \d+ steps \(run patrol-demo\): ends in done\n/,
    );
    expect(r.out).toContain('no divergence');
    const json = JSON.parse((await runCli(['replay', SHIPPED, '--json'])).out);
    expect(json).toMatchObject({ kind: 'patrol-run', runId: 'patrol-demo', divergences: [] });
  });

  it('should name the step a changed recording no longer matches, and exit 1', async () => {
    const lines = readFileSync(SHIPPED, 'utf8').split('\n');
    const step = JSON.parse(lines[2]!) as { after: { state: string } };
    step.after.state = 'nowhere';
    lines[2] = JSON.stringify(step);
    const file = join(mkdtempSync(join(tmpdir(), 'patrol-replay-')), 'changed.patrol.jsonl');
    writeFileSync(file, lines.join('\n'));
    const r = await runCli(['replay', file]);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^1 divergence:\n {2}step 2 \(\w+\): recorded \{"state":"nowhere"/m);
  });
});
