/*
 * A recording process for the crash test: appends to FILE with the real file
 * recorder, as session ID. `forever`: records until killed (prints `ready`
 * and what reopening did to the file's tail once some lines are on disk); a
 * number: records that many calls and exits.
 */
import { createSafetySession } from '../../../src/index.js';
import { createFileRecorder } from '../../../src/node/fileRecorder.js';

const [file, id, mode] = process.argv.slice(2) as [string, string, string];
const recorder = createFileRecorder(file);
let t = 0;
const session = createSafetySession({ id, recorder, now: () => ++t });
// Long tool names make each line a kilobyte or so.
const tool = `get_status_${'x'.repeat(1000)}`;
const calls = mode === 'forever' ? Infinity : Number(mode);
for (let i = 0; i < calls; i++) {
  session.beginToolCall({ id: `r${i}`, kind: 'read', tool });
  session.endToolCall({ id: `r${i}`, ok: true });
  if (i === 20) process.stdout.write(`ready ${recorder.repairedTail ?? 'clean'}\n`);
  // A stream, not a burst: a few calls, then the event loop (the kill lands anywhere in between).
  if (i % 8 === 7) await new Promise((r) => setImmediate(r));
}
recorder.close();
process.stdout.write(`done ${recorder.repairedTail ?? 'clean'}\n`);
