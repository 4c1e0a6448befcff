import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { formatTable } from './formatTable.js';
import { machineLine } from './machineInfo.js';
import { canGc } from './measure.js';
import { runBench } from './runBench.js';
import { FULL_SIZES, SUITES, TINY_SIZES, type SuiteId } from './suites.js';

/*
 * npm run bench [-- --tiny] [-- --only gate,replay] [-- --out FILE]
 *
 * Runs every suite, prints one table and writes bench/results.json (the same
 * figures, the sizes and the machine; full runs only, else --out FILE).
 * Exit code 1 if a suite failed, 2 for bad arguments.
 */

const { values } = parseArgs({
  options: {
    tiny: { type: 'boolean' },
    only: { type: 'string' },
    out: { type: 'string' },
  },
});
if (!canGc()) {
  console.error('bench: run with node --expose-gc (npm run bench does)');
  process.exit(2);
}
const ids = SUITES.map((s) => s.id);
const only = values.only?.split(',').map((s) => s.trim()) as SuiteId[] | undefined;
const unknown = only?.filter((s) => !ids.includes(s));
if (unknown?.length) {
  console.error(`bench: unknown suite ${unknown.join(', ')}; the suites are ${ids.join(', ')}`);
  process.exit(2);
}
// bench/results.json holds full runs only: a tiny or partial run writes where --out says, or nowhere.
const out = values.out ?? (values.tiny || only ? undefined : new URL('./results.json', import.meta.url).pathname);

const results = await runBench(values.tiny ? TINY_SIZES : FULL_SIZES, {
  ...(only && { only }),
  onSuite: (title, ms) => process.stderr.write(ms === undefined ? `${title}…` : ` ${(ms / 1000).toFixed(1)} s\n`),
});
console.log(`\nMachine: ${machineLine(results.machine)}`);
console.log(
  `Run: ${(results.durationMs / 1000).toFixed(0)} s${values.tiny ? ' (tiny sizes: not representative)' : ''}\n`,
);
console.log(formatTable(results.figures));
for (const e of results.errors) console.log(`\nSUITE FAILED: ${e.suite}: ${e.message}`);
if (out) {
  writeFileSync(out, JSON.stringify(results, null, 2) + '\n');
  console.log(`\nwrote ${out}`);
}
process.exitCode = results.errors.length ? 1 : 0;
