import type { ToolRule } from './ToolRule.js';
import type { Issue } from '../core/Issue.js';
import type { ToolKind } from '../safety/toolKind.js';

/*
 * The provenance facts of a rule are each for one kind of call: `discovers` for a read or a
 * resolve (what its result reveals), `egress` for a read (where it sends data), `creates` for a
 * write (what it brings into being). A fact on a rule that can never give its kind is a mistake
 * the rule author should hear of on load, not a flag that silently does nothing.
 */

/** The kinds a rule can give a call. */
function kindsOf(rule: Exclude<ToolRule, string>): Set<ToolKind> {
  if (!('arg' in rule)) return new Set([rule.kind]);
  return new Set([...Object.values(rule.values), rule.default, rule.missing ?? 'write']);
}

/**
 * The issues of rules whose provenance facts do not fit their kinds, each naming the path
 * (`tools.fetch_url.egress`). Empty when every rule is consistent.
 *
 * @example
 * factIssues({ get_logs: { kind: 'write', egress: true } })[0]?.path; // ['tools', 'get_logs', 'egress']
 */
export function factIssues(tools: Readonly<Record<string, ToolRule>>): Issue[] {
  const issues: Issue[] = [];
  for (const [name, rule] of Object.entries(tools)) {
    if (typeof rule === 'string') continue;
    const at = (field: string, message: string) =>
      issues.push({ code: 'invalid_rule', path: ['tools', name, field], message });
    const kinds = kindsOf(rule);
    const gives = 'arg' in rule ? `its argument "${rule.arg}" never makes a call a` : `it is a ${rule.kind}, not a`;
    if (rule.discovers && !kinds.has('read') && !kinds.has('resolve'))
      at(
        'discovers',
        `discovers is for a read or a resolve (the result fields that name what it found), but ${gives} read or resolve`,
      );
    if (rule.egress === true && !kinds.has('read'))
      at(
        'egress',
        `egress is for a read that sends its arguments out (a URL, a host), but ${gives} read; a write's targets are validated anyway`,
      );
    if (rule.creates === true) {
      if ('arg' in rule)
        at(
          'creates',
          `creates is for a tool that always creates: on an argument rule every other value (a delete) would create too; give the creating tool a rule { kind: 'write', creates: true }`,
        );
      else if (rule.kind !== 'write')
        at('creates', `creates is for a write (it creates the resource it acts on), but it is a ${rule.kind}`);
    }
    if (rule.created && rule.creates !== true)
      at('created', 'created names what a creating write creates: it needs creates: true');
    if (rule.optionalTargets === true && !rule.targets)
      at('optionalTargets', 'optionalTargets says the target arguments may be absent: it needs targets');
  }
  return issues;
}
