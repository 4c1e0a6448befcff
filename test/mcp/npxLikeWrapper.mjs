// What `npx -y some-server` is to the gateway: a parent that spawns the real server
// (sharing its stdin and stdout) and waits for it. Writes its own pid to the file given first.
//   node test/mcp/npxLikeWrapper.mjs PID_FILE COMMAND [ARGS...]
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';

const [pidFile, command, ...args] = process.argv.slice(2);
writeFileSync(pidFile, String(process.pid));
const child = spawn(command, args, { stdio: 'inherit' });
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
