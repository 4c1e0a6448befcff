/*
 * `npm run soak`: the long, bounded runs that are too slow for `npm test`.
 * Every `soak/*.soak.ts` module exports `run(): Promise<void>`; they run one
 * after another and print their own figures. Each stops by itself (bounded
 * in count and time) and sends traffic only to loopback.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join } from 'node:path';

const here = fileURLToPath(new URL('.', import.meta.url));
const only = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith('.soak.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();
if (files.length === 0) {
  console.error('soak: no soak/*.soak.ts matched', only.join(' '));
  process.exit(2);
}
let failed = 0;
for (const f of files) {
  console.log(`\n## soak: ${f}`);
  const mod = (await import(pathToFileURL(join(here, f)).href)) as { run: () => Promise<void> };
  try {
    await mod.run();
  } catch (error) {
    failed++;
    console.error(`soak ${f} failed:`, error);
  }
}
process.exit(failed ? 1 : 0);
