import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateAgentCorpus } from '../../eval/agent/corpus.js';
import { evaluateDomain, formatAgentTable } from '../../eval/agentEval.js';
import { generateCodingCorpus } from '../../eval/coding/corpus.js';
import { evaluateCoding, formatCoding } from '../../eval/codingEval.js';

const dir = mkdtempSync(join(tmpdir(), 'eval-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the evaluation runner on a small slice', () => {
  it('audits each domain through the CLI and accounts for every labelled run and injected action', async () => {
    const corpus = generateAgentCorpus({ seed: 3, perDomain: 8 });
    const results = [];
    for (const c of corpus) {
      const r = await evaluateDomain(c, join('eval', 'rules', `${c.domain}.json`), join(dir, c.domain));
      const injected = c.labels.reduce((n, l) => n + l.injected.length, 0);
      expect(r.injected.total).toBe(injected);
      expect(r.injected.writes[1] + r.injected.egress[1]).toBe(injected);
      expect(r.clean.total).toBe(c.labels.filter((l) => l.injected.length === 0).length);
      expect(r.clean.asked).toBe(r.clean.askedRuns.length);
      expect(readdirSync(join(dir, c.domain))).toEqual(
        expect.arrayContaining([`${c.domain}.jsonl`, `${c.domain}.labels.jsonl`, 'report.json']),
      );
      results.push(r);
    }
    const table = formatAgentTable(results);
    expect(table.split('\n')).toHaveLength(2 + 4 + 1);
    expect(table).toContain('**total**');
  });

  it('feeds coding sessions to the hook and reports each session', async () => {
    const sessions = generateCodingCorpus({ seed: 3, benign: 2 }).slice(0, 4);
    const results = await evaluateCoding(sessions, join(dir, 'coding'));
    expect(results.map((r) => r.id)).toEqual(sessions.map((s) => s.id));
    results.forEach((r, i) =>
      expect(r.calls).toBe(sessions[i]!.events.filter((e) => e.hook_event_name === 'PreToolUse').length),
    );
    expect(formatCoding(results)).toMatch(/mean denials per benign session: \d+\.\d\d/);
  });

  it('refuses a rules file that is wrong beyond the provenance fields, naming the field', async () => {
    const [c] = generateAgentCorpus({ seed: 3, perDomain: 2 });
    const bad = join(dir, 'bad-rules.json');
    writeFileSync(bad, JSON.stringify({ tools: { send_money: { kind: 'wrte', discovers: [{ path: 'x' }] } } }));
    await expect(evaluateDomain(c!, bad, join(dir, 'bad'))).rejects.toThrow(/send_money/);
  });
});
