import { createFileSessionStore } from '../../src/node/createFileSessionStore.js';
import { FILE } from './fixtures.js';

/*
 * A process that saves one session over and over, each revision a few megabytes (so a kill
 * lands mid-write often), until it is killed. Prints `ready` after its first save.
 */
const [dir, id] = process.argv.slice(2) as [string, string];
const store = createFileSessionStore({ dir, session: { targets: 'bind', profile: 'detection' } });
for (let n = 0; ; n++) {
  await store.withSession(id, (s, notes) => {
    s.beginToolCall({ id: `r${n}`, kind: 'read', tool: 'Read', targets: [`file:${FILE}`] });
    s.endToolCall({ id: `r${n}`, ok: true });
    notes.blob = String(n).repeat(1 << 20);
    notes.n = n;
  });
  if (n === 0) process.stdout.write('ready\n');
}
