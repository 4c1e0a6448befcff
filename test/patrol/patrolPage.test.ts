import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { toMermaid } from 'assistant-safety/export';
import { PATROL_INVARIANTS, patrolDefinitionOf, patrolMachine } from 'assistant-safety/patrol';

const page = readFileSync('docs/patrol.md', 'utf8');

describe('the Patrol page (docs/patrol.md)', () => {
  it('should show the diagram generated from machines/patrol.json', () => {
    const block = /<!-- patrol-diagram:start -->\s*```mermaid\n([\s\S]*?)```\s*<!-- patrol-diagram:end -->/.exec(page);
    expect(block, 'docs/patrol.md needs the diagram between patrol-diagram markers').not.toBeNull();
    expect(block![1], 'the diagram in docs/patrol.md is out of date: regenerate it with toMermaid').toBe(
      toMermaid(patrolDefinitionOf(patrolMachine)!),
    );
  });

  it('should state every invariant as the code does', () => {
    for (const inv of PATROL_INVARIANTS) expect(page).toContain(`| ${inv.id}  | ${inv.sentence}`);
  });
});
