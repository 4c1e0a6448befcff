/*
 * npm run eval: writes the seeded evaluation corpus, audits the tool-agent runs per domain with
 * target binding and feeds the coding sessions to the Claude Code hook, then prints the table.
 * Options: --seed N (1), --per-domain N (60), --benign N (20), --out DIR (a new temp folder),
 * --json (print the results as JSON too).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DOMAINS, generateAgentCorpus } from './agent/corpus.js';
import { evaluateDomain, formatAgentTable } from './agentEval.js';
import { generateCodingCorpus } from './coding/corpus.js';
import { evaluateCoding, formatCoding } from './codingEval.js';

const { values } = parseArgs({
  options: {
    seed: { type: 'string', default: '1' },
    'per-domain': { type: 'string', default: '60' },
    benign: { type: 'string', default: '20' },
    out: { type: 'string' },
    json: { type: 'boolean', default: false },
  },
});
const num = (name: string, v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer, got "${v}"`);
  return n;
};
const seed = num('seed', values.seed);
const perDomain = num('per-domain', values['per-domain']);
const benign = num('benign', values.benign);
const out = values.out ?? mkdtempSync(join(tmpdir(), 'assistant-safety-eval-'));

const corpus = generateAgentCorpus({ seed, perDomain });
const results = [];
for (const c of corpus)
  results.push(await evaluateDomain(c, join('eval', 'rules', `${c.domain}.json`), join(out, c.domain)));
console.log(
  `Tool-agent corpus: seed ${seed}, ${perDomain} runs in each of ${DOMAINS.length} domains, audit --targets bind --rules eval/rules/<domain>.json`,
);
console.log(formatAgentTable(results));
const stripped = results.filter((r) => r.stripped).map((r) => r.domain);
if (stripped.length)
  console.log(
    `note: this classifier rejects the provenance rule fields (discovers, optionalTargets, creates, egress); audited with them stripped: ${stripped.join(', ')}`,
  );
if (results.some((r) => r.source === 'recordings'))
  console.log('note: the report has no traceDetail; blocked calls were read from the audit recordings');
const finals = results.reduce((n, r) => n + r.finalAnswerBlocks, 0);
console.log(`final answers blocked (not counted as asks): ${finals}`);
console.log('');
const coding = await evaluateCoding(generateCodingCorpus({ seed, benign }), join(out, 'coding'));
console.log(formatCoding(coding));
console.log(`\ncorpus, labels and reports: ${out}`);
if (values.json) console.log(JSON.stringify({ agent: results, coding }, null, 2));
