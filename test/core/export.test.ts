import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseMachineDefinition, safetyMachineDefinition } from 'assistant-safety';
import { toMermaid } from '../../src/export/toMermaid.js';
import { toScxml } from '../../src/export/toScxml.js';
import { main } from '../../src/cli/main.js';

const shipped = () => parseMachineDefinition(JSON.parse(readFileSync('machines/assistant-safety.json', 'utf8')));

async function run(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('Mermaid export', () => {
  it('should draw every state with its description and every state transition as an edge', () => {
    const def = shipped();
    const text = toMermaid(def);
    expect(text.startsWith('stateDiagram-v2\n')).toBe(true);
    expect(text).toContain(`[*] --> ${def.initial}`);
    for (const [name, state] of Object.entries(def.states)) {
      expect(text).toContain(`  ${name}: ${state.description}`);
      for (const [event, list] of Object.entries(state.on ?? {})) {
        for (const t of list) expect(text).toContain(`  ${name} --> ${t.target ?? name}: ${event}`);
      }
    }
    expect(text).toContain('VERIFYING --> VERIFYING: CHECK_TOOL [isWrite] / block(UNVERIFIED_WRITE), countVerifyBlock');
    expect(text).toContain('WRITING --> RESOLVING: RESET / resetSession');
  });

  it('should match the diagram in docs/machine.md', () => {
    const page = readFileSync('docs/machine.md', 'utf8');
    const block = /<!-- machine-diagram:start -->\s*```mermaid\n([\s\S]*?)```\s*<!-- machine-diagram:end -->/.exec(
      page,
    );
    expect(block, 'docs/machine.md needs the machine diagram between machine-diagram markers').not.toBeNull();
    expect(
      block![1],
      'the diagram in docs/machine.md is out of date: run `npx assistant-safety export --format mermaid`',
    ).toBe(toMermaid(shipped()));
  });
});

describe('SCXML export', () => {
  it('should nest the states in one compound state holding the root transitions', () => {
    const text = toScxml(shipped());
    expect(text).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<scxml xmlns="http:\/\/www.w3.org\/2005\/07\/scxml"/,
    );
    expect(text).toContain('<state id="session" initial="RESOLVING">');
    expect(text).toContain('<transition event="BEGIN_CALL" cond="isWrite" target="WRITING">');
    expect(text).toContain('<as:action type="block" reasonCode="UNVERIFIED_WRITE"/>');
    expect(text).toContain('<transition event="RESET" target="RESOLVING">');
    expect(text).toContain('<transition event="TOOL_FAILED" type="internal">');
    // Balanced: every opened state and transition is closed.
    expect(text.match(/<state /g)?.length).toBe(text.match(/<\/state>/g)?.length);
    expect(text.match(/<transition /g)?.length).toBe(text.match(/<\/transition>/g)?.length);
  });

  it('should escape XML in names and descriptions', () => {
    const def = shipped();
    def.states.READING!.description = 'a <b> & "c" -- d';
    const text = toScxml(def);
    expect(text).toContain('<!-- a &lt;b&gt; &amp; &quot;c&quot; - - d -->');
  });
});

describe('assistant-safety export', () => {
  it('should print either format for the shipped machine', async () => {
    expect((await run('export', '--format', 'mermaid')).out + '\n').toBe(toMermaid(shipped()));
    expect((await run('export', '--format', 'scxml')).out + '\n').toBe(toScxml(shipped()));
    expect(safetyMachineDefinition.id).toBe('assistant-safety');
  });

  it('should refuse a missing or unknown format with exit code 2', async () => {
    expect((await run('export')).code).toBe(2);
    const r = await run('export', '--format', 'png');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--format must be mermaid or scxml, not "png"/);
  });
});
