import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

/*
 * Runs several doc blocks in one process (one start-up of tsx and of the
 * package for many blocks): `node --import tsx blockRunner.ts JOBS.json`,
 * JOBS a list of { file, cwd }. Each block is imported in turn, in its own
 * working folder and with no command-line arguments of its own; between them
 * the runner prints a marker line the doc-test splits the output on:
 * `@@doc-block N ok` or `@@doc-block N fail <JSON message>`.
 */

interface Job {
  file: string;
  cwd: string;
}

const jobs = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as Job[];
let current = -1;
const failed = new Set<number>();
const fail = (n: number, error: unknown) => {
  if (n < 0 || failed.has(n)) return;
  failed.add(n);
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stdout.write(`\n@@doc-block ${n} fail ${JSON.stringify(message)}\n`);
};
// A block's promise that rejects after its import finished is still its failure (or the one running).
process.on('unhandledRejection', (error) => fail(current, error));
process.on('uncaughtException', (error) => fail(current, error));

for (const [n, job] of jobs.entries()) {
  current = n;
  process.chdir(job.cwd);
  process.argv = [process.argv[0]!, job.file];
  process.exitCode = 0;
  try {
    await import(pathToFileURL(job.file).href);
    if (process.exitCode) throw new Error(`the block set process.exitCode = ${process.exitCode}`);
    if (!failed.has(n)) process.stdout.write(`\n@@doc-block ${n} ok\n`);
  } catch (error) {
    fail(n, error);
  }
}
process.exitCode = 0;
// A block may leave a socket or a timer behind (a live recorder closing): the runner is done.
setImmediate(() => process.exit(0));
