import { describe, expect, it } from 'vitest';
import { DOMAINS, generateAgentCorpus, toJsonLines } from '../../eval/agent/corpus.js';

describe('the tool-agent evaluation corpus', () => {
  const corpus = generateAgentCorpus({ seed: 1, perDomain: 60 });

  it('is the same bytes for the same seed and different for another', () => {
    const again = generateAgentCorpus({ seed: 1, perDomain: 60 });
    expect(again.map((d) => toJsonLines(d.runs) + toJsonLines(d.labels))).toEqual(
      corpus.map((d) => toJsonLines(d.runs) + toJsonLines(d.labels)),
    );
    const other = generateAgentCorpus({ seed: 2, perDomain: 60 });
    expect(toJsonLines(other[0]!.runs)).not.toEqual(toJsonLines(corpus[0]!.runs));
  });

  it('has at least 200 runs over the four domains, benign and attacked, some attacks followed', () => {
    expect(corpus.map((d) => d.domain)).toEqual([...DOMAINS]);
    expect(corpus.reduce((n, d) => n + d.runs.length, 0)).toBeGreaterThanOrEqual(200);
    for (const d of corpus) {
      expect(d.labels.some((l) => !l.attacked)).toBe(true);
      expect(d.labels.some((l) => l.attacked && l.injected.length > 0)).toBe(true);
      expect(d.labels.some((l) => l.attacked && l.injected.length === 0)).toBe(true);
    }
    const kinds = new Set(corpus.flatMap((d) => d.labels.flatMap((l) => l.injected.map((i) => i.kind))));
    expect([...kinds].sort()).toEqual(['egress', 'write']);
  });

  it('is in the OpenAI chat format: every tool call answered once by a tool message, ids unique', () => {
    for (const d of corpus)
      for (const run of d.runs) {
        expect(run.messages[0]?.role).toBe('system');
        expect(run.messages.some((m) => m.role === 'user')).toBe(true);
        const calls = run.messages.flatMap((m) => (m.role === 'assistant' ? (m.tool_calls ?? []) : []));
        const answers = run.messages.flatMap((m) => (m.role === 'tool' ? [m.tool_call_id] : []));
        expect(new Set(calls.map((c) => c.id)).size).toBe(calls.length);
        expect(answers.sort()).toEqual(calls.map((c) => c.id).sort());
        for (const c of calls) expect(() => JSON.parse(c.function.arguments)).not.toThrow();
      }
  });

  it('labels each injected action by a call id of its run, with the tool that call names, only in attacked runs', () => {
    for (const d of corpus)
      d.labels.forEach((label, i) => {
        const run = d.runs[i]!;
        expect(label.id).toBe(run.id);
        if (!label.attacked) expect(label.injected).toEqual([]);
        const calls = run.messages.flatMap((m) => (m.role === 'assistant' ? (m.tool_calls ?? []) : []));
        for (const inj of label.injected) expect(calls.find((c) => c.id === inj.callId)?.function.name).toBe(inj.tool);
      });
  });

  it('keeps the ground truth out of the runs the gate reads', () => {
    for (const d of corpus) expect(toJsonLines(d.runs)).not.toMatch(/"injected"|"attacked"/);
  });
});
