/*
 * npm start: build what is missing (the library and the app), serve the
 * visualiser, and start a real agent process that streams the demo's
 * scenarios to it once, one labelled live session each, so the printed URL
 * shows one at once; a second URL opens the target-binding session, whose
 * context panel says where each validated target came from. Beside it, the
 * scripted Patrol demo runs once (a small fake inventory, a model that misses
 * a failing disk, the evaluation pass catching it) and its recording is
 * written to recordings/, with a third URL that opens it on the Patrol machine. Ctrl-C stops the agent first,
 * then the server: no "lost the connection" noise on the way out.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEMO_SCENARIOS } from '../examples/demoScenarios.js';
import { TARGET_BINDING_SCENARIO } from '../examples/demoPayments.js';
import { runPatrolDemo } from '../examples/patrolDemo.js';
import { patrolRecordingText } from '../src/patrol/index.js';
import { serveApp } from '../src/server/index.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function build(what: string, script: string, marker: string) {
  if (existsSync(join(root, marker))) return;
  console.log(`start: building the ${what} (npm run ${script})…`);
  const result = spawnSync(npm, ['run', script], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`start: npm run ${script} failed`);
    process.exit(result.status ?? 1);
  }
}
const portText = process.env['PORT'];
const port = portText === undefined || portText === '' ? undefined : Number(portText);
if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port <= 65535)) {
  console.error(`start: PORT must be a port number from 0 to 65535 (0: a free one), got "${portText}"`);
  process.exit(2);
}
build('library', 'build:lib', 'dist/src/index.js');
build('app', 'build:viz', 'dist/viz/index.html');

const recordingsDir = join(root, 'recordings');
const server = await serveApp({ recordingsDir, ...(port !== undefined && { port }) });

// The Patrol demo: one scripted run, recorded where the app lists recordings.
const PATROL_RECORDING = 'patrol-demo.patrol.jsonl';
const patrol = await runPatrolDemo();
writeFileSync(join(recordingsDir, PATROL_RECORDING), patrolRecordingText(patrol.result));

// `node --import tsx`, not the tsx CLI: that wrapper relays Ctrl-C to its child and, when the child is
// slow to answer (a busy machine), kills it and exits 130 instead of letting it stop quietly.
const agent = spawn(
  process.execPath,
  ['--import', 'tsx', join(root, 'scripts', 'live-agent.ts'), server.url, '--delay', '600', '--name', 'demo'],
  {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
  },
);

console.log('\nassistant-safety visualiser: open this URL in your browser (live sessions are streaming):');
console.log(server.url);
console.log(`(the demo plays its ${DEMO_SCENARIOS.length} scenarios once, one live session each; Ctrl-C to stop)`);
console.log(
  `\n"${TARGET_BINDING_SCENARIO.title}" shows where each validated target came from (the context panel); it opens here once its session starts:`,
);
console.log(`${server.url}&mode=live&session=demo-${TARGET_BINDING_SCENARIO.name}`);
const { record } = patrol.result;
console.log(
  `\nThe Patrol demo: ${record.signals.length} signals, ${record.unmatchedBeforeEvaluation.length} missed by the model and caught by the evaluation pass. Replay it on the Patrol machine:`,
);
console.log(`${server.url}&mode=recordings&recording=${PATROL_RECORDING}\n`);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  // The agent first, and wait for it: its sockets close before the server goes.
  if (agent.exitCode === null && agent.signalCode === null) {
    const exited = new Promise<void>((resolve) => agent.once('exit', () => resolve()));
    agent.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 3000))]);
  }
  await server.close();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
