import { machineInfo, type MachineInfo } from './machineInfo.js';
import type { Figure } from './measure.js';
import { SUITES, type BenchSizes, type SuiteId } from './suites.js';

/** What a run produced: `bench/results.json` holds exactly this. */
export interface BenchResults {
  machine: MachineInfo;
  sizes: BenchSizes;
  /** Wall time of the whole run, ms. */
  durationMs: number;
  /** Wall time of each suite, ms. */
  suiteMs: Partial<Record<SuiteId, number>>;
  figures: Figure[];
  /** Suites that failed, with why: their figures are missing. */
  errors: Array<{ suite: SuiteId; message: string }>;
}

/**
 * Runs the suites (all, or `only`) one after the other and collects their
 * figures; a suite that throws is recorded in `errors` and the others still run.
 */
export async function runBench(
  sizes: BenchSizes,
  { only, onSuite }: { only?: readonly SuiteId[]; onSuite?: (title: string, ms?: number) => void } = {},
): Promise<BenchResults> {
  const machine = machineInfo();
  const started = performance.now();
  const figures: Figure[] = [];
  const errors: BenchResults['errors'] = [];
  const suiteMs: BenchResults['suiteMs'] = {};
  for (const suite of SUITES) {
    if (only && !only.includes(suite.id)) continue;
    onSuite?.(suite.title);
    const t = performance.now();
    try {
      figures.push(...(await suite.run(sizes)));
    } catch (e) {
      errors.push({ suite: suite.id, message: (e as Error).stack ?? String(e) });
    }
    suiteMs[suite.id] = Math.round(performance.now() - t);
    onSuite?.(suite.title, suiteMs[suite.id]);
  }
  return { machine, sizes, durationMs: Math.round(performance.now() - started), suiteMs, figures, errors };
}
