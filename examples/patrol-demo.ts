import { writeFileSync } from 'node:fs';
import { exampleArgs } from './exampleArgs.js';
import { patrolRecordingText } from 'assistant-safety/patrol';
import { runPatrolDemo } from './patrolDemo.js';

/*
 * npm run patrol-demo [-- --out FILE.json] [--recording FILE.patrol.jsonl] [--quiet]
 *
 * One Patrol run over a small fake inventory with a scripted model that
 * misses a failing disk: detection finds it in the model's own tool output,
 * the evaluation pass files it. Prints the run step by step and the record's
 * key lines; --out writes the record and the machine steps as JSON; --recording
 * writes the run as a Patrol recording the app replays. Exits 1 if
 * the evaluation pass did not catch the missed signal.
 */
const { values } = exampleArgs('patrol-demo', {
  options: {
    out: { type: 'string' },
    recording: { type: 'string' },
    quiet: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (values.help) {
  console.log('Usage: npm run patrol-demo -- [--out FILE.json] [--recording FILE.patrol.jsonl] [--quiet]');
  process.exit(0);
}

const { result, lines, investigated } = await runPatrolDemo();
const { record } = result;
const say = (line: string) => {
  if (!values.quiet) console.log(line);
};
for (const line of lines) say(line);
say('');
say(`signals detected: ${record.signals.map((s) => `${s.type} on ${s.resourceId}`).join(', ')}`);
say(`unmatched after the main pass: ${record.unmatchedBeforeEvaluation.map((s) => s.summary).join('; ') || 'none'}`);
say(
  `unmatched after the evaluation pass: ${record.unmatchedAfterEvaluation.map((s) => s.summary).join('; ') || 'none'}`,
);
say(
  `record: ${record.status}, "${record.findingsSummary}", ${record.newFindings} new, ${record.resolvedFindings} resolved`,
);
say(`path: ${record.phases.join(' → ')}`);
for (const line of investigated) say(`investigation started: ${line}`);
if (values.recording) writeFileSync(values.recording, patrolRecordingText(result));
if (values.out) writeFileSync(values.out, JSON.stringify({ record, steps: result.steps }, null, 2) + '\n');

const caught = record.unmatchedBeforeEvaluation.length === 1 && record.unmatchedAfterEvaluation.length === 0;
if (!caught) {
  console.error('patrol-demo: the evaluation pass did not catch the missed signal');
  process.exit(1);
}
