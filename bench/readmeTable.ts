import { readFileSync } from 'node:fs';
import { formatMarkdownTable } from './formatTable.js';
import { machineLine } from './machineInfo.js';
import type { BenchResults } from './runBench.js';

/*
 * Prints bench/results.json (or the file given) as the Markdown table and
 * machine line of the README's Performance section:
 *
 *   node --import tsx bench/readmeTable.ts [FILE]
 */

const file = process.argv[2] ?? new URL('./results.json', import.meta.url).pathname;
const results = JSON.parse(readFileSync(file, 'utf8')) as BenchResults;
console.log(
  `Measured on: ${machineLine(results.machine)}; the whole run took ${Math.round(results.durationMs / 1000)} s.\n`,
);
console.log(formatMarkdownTable(results.figures));
