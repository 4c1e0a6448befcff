import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { formatMarkdownTable } from './formatTable.js';
import { machineLine } from './machineInfo.js';
import type { BenchResults } from './runBench.js';

/*
 * The latest run in docs/performance.md: bench/results.json (or the file
 * given) as the machine line and the Markdown table between the page's
 * bench-table markers.
 *
 *   node --import tsx bench/readmeTable.ts [FILE]           # print the block
 *   node --import tsx bench/readmeTable.ts [FILE] --write   # and write it into docs/performance.md
 */

/** The page the table lives in. */
export const PERFORMANCE_PAGE = fileURLToPath(new URL('../docs/performance.md', import.meta.url));
const START = '<!-- bench-table:start -->';
const END = '<!-- bench-table:end -->';

/** The machine line and the table of one run, as Markdown (unpadded: Prettier pads it). */
export function performanceBlock(results: BenchResults): string {
  return [
    `Latest run (\`npm ci && npm run bench\` in a fresh clone), on ${machineLine(results.machine)}; ` +
      `the whole run took ${Math.round(results.durationMs / 1000)} s:`,
    '',
    formatMarkdownTable(results.figures),
  ].join('\n');
}

/** The text between the page's bench-table markers. */
export function tableSection(page: string): string {
  const start = page.indexOf(START);
  const end = page.indexOf(END);
  if (start < 0 || end < start) throw new Error(`docs/performance.md needs ${START} and ${END}`);
  return page.slice(start + START.length, end);
}

/** Replaces the block in docs/performance.md and formats the page as `npm run format` would. */
async function writeBlock(results: BenchResults): Promise<void> {
  const page = readFileSync(PERFORMANCE_PAGE, 'utf8');
  const old = tableSection(page);
  const next = page.replace(START + old + END, `${START}\n\n${performanceBlock(results)}\n\n${END}`);
  const options = (await resolveConfig(PERFORMANCE_PAGE)) ?? {};
  writeFileSync(PERFORMANCE_PAGE, await format(next, { ...options, filepath: PERFORMANCE_PAGE }));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  const file = args.find((a) => a !== '--write') ?? fileURLToPath(new URL('./results.json', import.meta.url));
  const results = JSON.parse(readFileSync(file, 'utf8')) as BenchResults;
  console.log(performanceBlock(results));
  if (args.includes('--write')) {
    await writeBlock(results);
    console.log(`\nwritten into ${PERFORMANCE_PAGE}`);
  }
}
