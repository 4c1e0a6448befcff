/*
 * The server for the crash test: `assistant-safety serve`'s startServer on
 * the machines folder DIR, printing its URL; killed mid-save by the test.
 */
import { startServer } from '../../../src/server/startServer.js';

const [dir, appDir] = process.argv.slice(2) as [string, string];
const server = await startServer({ machinesDir: dir, recordingsDir: dir, appDir });
process.stdout.write(`${server.url}\n`);
