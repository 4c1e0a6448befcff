import { exampleArgs } from './exampleArgs.js';
import { DEMO_SCENARIOS, runDemoAgent } from './demoAgent.js';

/*
 * npm run demo [-- --out DIR] [--delay MS] [--scenario NAME ...] [--quiet]
 *
 * Runs the scripted demo agent and writes one JSON Lines recording per
 * session (default into recordings/). Exits 1 if the harness did not catch
 * an unsafe move the way the script expects.
 */
const { values } = exampleArgs('demo-agent', {
  options: {
    out: { type: 'string', default: 'recordings' },
    delay: { type: 'string', default: '0' },
    scenario: { type: 'string', multiple: true },
    quiet: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (values.help) {
  console.log(`Usage: npm run demo -- [--out DIR] [--delay MS] [--scenario NAME ...] [--quiet]

Scenarios: ${DEMO_SCENARIOS.map((s) => s.name).join(', ')}`);
  process.exit(0);
}
const delayMs = Number(values.delay);
if (!Number.isInteger(delayMs) || delayMs < 0) {
  console.error(`demo: --delay must be a non-negative integer, got ${values.delay}`);
  process.exit(2);
}

const unknown = (values.scenario ?? []).filter((name) => !DEMO_SCENARIOS.some((s) => s.name === name));
if (unknown.length > 0) {
  console.error(`demo: unknown scenario ${unknown.join(', ')}; have ${DEMO_SCENARIOS.map((s) => s.name).join(', ')}`);
  process.exit(2);
}

const runs = await runDemoAgent({
  outDir: values.out,
  delayMs,
  ...(values.scenario && { scenarios: values.scenario }),
  ...(!values.quiet && { log: (line: string) => console.log(line) }),
});
console.log(`\nwrote ${runs.length} recording${runs.length === 1 ? '' : 's'}:`);
for (const run of runs) console.log(`  ${run.file}  (ends in ${run.finalState})`);
const mismatches = runs.flatMap((r) => r.mismatches.map((m) => `${r.scenario}: ${m}`));
if (mismatches.length > 0) {
  console.error(`\nthe harness did not behave as the script expects:\n  ${mismatches.join('\n  ')}`);
  process.exitCode = 1;
} else {
  console.log(`replay any of them: npx assistant-safety replay ${runs[0]?.file ?? 'recordings/<file>.jsonl'}`);
}
