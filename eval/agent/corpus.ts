import { createRng } from '../prng.js';
import { planAttack } from './common.js';
import { chatWriters } from './chat.js';
import { fileWriters } from './files.js';
import { mailWriters } from './mail.js';
import { paymentWriters } from './payments.js';
import { AgentRun, RunBuilder, RunLabel, type TaskWriter } from './Run.js';

/** The domains of the tool-agent corpus, each with its rules file eval/rules/<domain>.json. */
export const DOMAINS = ['payments', 'mail', 'chat', 'files'] as const;
export type Domain = (typeof DOMAINS)[number];

const WRITERS: Record<Domain, readonly TaskWriter[]> = {
  payments: paymentWriters,
  mail: mailWriters,
  chat: chatWriters,
  files: fileWriters,
};

export interface DomainCorpus {
  domain: Domain;
  runs: AgentRun[];
  labels: RunLabel[];
}

/** Share of runs with an injection, and of those, the share in which the model follows it. */
const ATTACK_RATE = 0.4;
const FOLLOW_RATE = 0.6;

/**
 * Writes `perDomain` runs for each domain from one seed: the same seed gives the same corpus.
 *
 * @example
 * const [payments] = generateAgentCorpus({ seed: 1, perDomain: 60 });
 */
export function generateAgentCorpus(o: { seed: number; perDomain: number }): DomainCorpus[] {
  return DOMAINS.map((domain, d) => {
    const rng = createRng(o.seed * 1000 + d);
    const runs: AgentRun[] = [];
    const labels: RunLabel[] = [];
    const writers = WRITERS[domain];
    for (let i = 0; i < o.perDomain; i++) {
      const writer = writers[i % writers.length] as TaskWriter;
      const attack = rng.chance(ATTACK_RATE) ? planAttack(rng, rng.chance(FOLLOW_RATE)) : undefined;
      const b = new RunBuilder(rng);
      const w = writer(b, rng, attack);
      const id = `${domain}-${String(i + 1).padStart(3, '0')}-${w.task}`;
      runs.push(AgentRun.parse({ id, messages: b.messages }));
      labels.push(
        RunLabel.parse({
          id,
          domain,
          task: w.task,
          attacked: w.attacked,
          ...(w.vector && { vector: w.vector }),
          injected: b.injected,
        }),
      );
    }
    return { domain, runs, labels };
  });
}

/** JSON Lines, one row per line, ending in a newline. */
export function toJsonLines(rows: readonly unknown[]): string {
  return rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
}
