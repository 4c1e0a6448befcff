import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AuditReport, COUNTERFACTUAL_NOTE } from 'assistant-safety/audit';
import { main } from '../../src/cli/main.js';
import { generateTraces, openaiRow, RULES } from './traceModel.js';

/*
 * `--out` picks the report's form by extension: JSON (the documented schema), Markdown for a pull
 * request, a self-contained HTML page with bar charts. Each says the audit is a counterfactual.
 */

async function auditTo(out: string) {
  const dir = mkdtempSync(join(tmpdir(), 'audit-out-'));
  writeFileSync(join(dir, 'rules.json'), JSON.stringify(RULES));
  writeFileSync(
    join(dir, 'export.jsonl'),
    generateTraces(40, 11)
      .map((t) => JSON.stringify(openaiRow(t, false)))
      .join('\n'),
  );
  const err: string[] = [];
  const code = await main(
    ['audit', join(dir, 'export.jsonl'), '--rules', join(dir, 'rules.json'), '--out', join(dir, out)],
    {
      out: () => {},
      err: (t) => err.push(t),
    },
  );
  expect(code).toBe(0);
  expect(err.join('\n')).toMatch(/^audit: 40 traces, \d+ with a blocked call/);
  return readFileSync(join(dir, out), 'utf8');
}

describe('the report forms', () => {
  it('should write JSON that parses with the documented schema and carries the note', async () => {
    const report = AuditReport.parse(JSON.parse(await auditTo('report.json')));
    expect(report.note).toBe(COUNTERFACTUAL_NOTE);
    expect(report.traces).toBe(40);
  });

  it('should write Markdown: the note, the overview and one table per part', async () => {
    const md = await auditTo('report.md');
    expect(md).toContain(`> ${COUNTERFACTUAL_NOTE}`);
    expect(md).toMatch(/\| traces audited \| 40 \|/);
    for (const title of [
      'Blocked by reason',
      'Blocked tool calls by tool',
      'Blocked by state',
      'first block falls',
      'blocked sequences',
      'Kind each tool got',
    ])
      expect(md).toContain(title);
    expect(md).toContain('No rule, kind or annotation declared: delete_vm.');
  });

  it('should write one self-contained HTML page with SVG bar charts and nothing loaded from elsewhere', async () => {
    const html = await auditTo('report.html');
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).not.toMatch(/<script|<link|src=|href=/i);
    expect((html.match(/<svg class="chart"/g) ?? []).length).toBeGreaterThanOrEqual(3);
    expect(html).toMatch(/<rect x="\d+" y="3" width="[\d.]+"/);
    expect(html).toContain('Counterfactual:');
  });

  it('should refuse an output it cannot write in any form', async () => {
    const err: string[] = [];
    const code = await main(['audit', 'x.jsonl', '--out', 'report.pdf'], { out: () => {}, err: (t) => err.push(t) });
    expect(code).toBe(2);
    expect(err.join('\n')).toContain('--out: a .json, .md or .html file, got "report.pdf"');
  });
});

describe('--escalate', () => {
  it('should count the reasons given, and refuse a code that is no block reason', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'audit-esc-'));
    writeFileSync(join(dir, 'rules.json'), JSON.stringify(RULES));
    writeFileSync(
      join(dir, 'export.jsonl'),
      generateTraces(40, 11)
        .map((t) => JSON.stringify(openaiRow(t, false)))
        .join('\n'),
    );
    const run = async (...extra: string[]) => {
      const out: string[] = [];
      const err: string[] = [];
      const code = await main(['audit', join(dir, 'export.jsonl'), '--rules', join(dir, 'rules.json'), ...extra], {
        out: (t) => out.push(t),
        err: (t) => err.push(t),
      });
      return { code, out: out.join('\n'), err: err.join('\n') };
    };
    const all = JSON.parse((await run()).out);
    const onlyUnverified = JSON.parse((await run('--escalate', 'UNVERIFIED_WRITE')).out);
    expect(onlyUnverified.escalations).toMatchObject({
      calls: all.blocked.UNVERIFIED_WRITE,
      reasons: { UNVERIFIED_WRITE: all.blocked.UNVERIFIED_WRITE },
    });
    expect(all.escalations.calls).toBe((all.blocked.UNVERIFIED_WRITE ?? 0) + (all.blocked.NO_VALIDATED_TARGET ?? 0));
    const bad = await run('--escalate', 'UNVERIFIED_WRITE,NOPE');
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--escalate: unknown block reason "NOPE" (one of NO_VALIDATED_TARGET, ');
    // The words the hook and createAuditReport use too, with the code meant when it is close.
    expect((await run('--escalate', 'UNVERIFIED_WRTE')).err).toContain(
      '--escalate: unknown block reason "UNVERIFIED_WRTE" (did you mean UNVERIFIED_WRITE?)',
    );
  });
});
