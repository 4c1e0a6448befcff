import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { classifyFromTools, ToolDeclarationError, type Classification } from '../classify/index.js';
import { ClassifierRulesError } from '../harness/classifier.js';
import { UsageError, type Command } from './Command.js';
import { withAnnotationTrust, type AnnotationTrust } from '../mcp/annotationTrust.js';
import { importMcp, readRulesFile, splitAtDashes } from './mcpGateway.js';
import { annotationTrustOf } from './gatewayOptions.js';
import {
  classifyCalls,
  formatCalls,
  parseCallOption,
  readCallsFile,
  type CallClassification,
} from './classifyCalls.js';

/** The tool list with each tool's annotations as far as `trust` believes them (any of the list shapes). */
function trusted(list: unknown, trust: AnnotationTrust): unknown {
  if (trust === 'all' || typeof list !== 'object' || list === null) return list;
  const one = (tool: unknown) =>
    typeof tool === 'object' && tool !== null && !Array.isArray(tool)
      ? withAnnotationTrust(tool as { annotations?: unknown }, trust)
      : tool;
  if (Array.isArray(list)) return list.map(one);
  const tools = (list as { tools?: unknown }).tools;
  if (Array.isArray(tools)) return { ...list, tools: tools.map(one) };
  return Object.fromEntries(Object.entries(list).map(([name, tool]) => [name, one(tool)]));
}

/** The table `classify` prints: one row a tool, columns aligned. */
function formatClassification(rows: readonly Classification[]): string {
  const header = { tool: 'TOOL', kind: 'KIND', detail: 'DECIDED BY' };
  const tool = Math.max(header.tool.length, ...rows.map((r) => r.tool.length));
  const kind = Math.max(header.kind.length, ...rows.map((r) => r.kind.length));
  return [header, ...rows].map((r) => `${r.tool.padEnd(tool)}  ${r.kind.padEnd(kind)}  ${r.detail}`).join('\n');
}

export const classifyCommand: Command = {
  name: 'classify',
  summary: 'print the kind each tool of a tool list gets, and the rule that decided it',
  usage: `assistant-safety classify FILE [--rules FILE] [--name-verbs] [--trust-annotations MODE] [--format table|json] [--check]
assistant-safety classify [OPTIONS] -- COMMAND [ARGS...]
assistant-safety classify [FILE] --rules FILE --call NAME[=JSON]... [--calls FILE] [OPTIONS]

Classifies every tool of a tool list the way the gateway and classifyFromTools
do, so you review the classification before an agent runs: FILE is JSON in the
MCP tools/list result shape ({ "tools": [{ "name", "annotations"? }] }; a tool
may carry a "kind"), or, after --, an MCP server to start and list (stdio).

  --rules FILE    classifier rules (the createClassifier format); they win
  --name-verbs    opt in to the name-verb heuristic (get_, list_, read_ ... as reads)
  --trust-annotations all|destructive-only|none
                  how far annotations are believed, as in mcp-gateway (default all)
  --call NAME[=JSON]
                  classify this call too (repeatable): the tool's name and its arguments
                  as a JSON object; shows the targets it carries, its flags (creates,
                  egress, untrusted, optional, state-only, discovers) and what
                  --targets bind does with a write whose target arguments are missing
  --calls FILE    calls to classify, a JSON array of { "name", "arguments"? }
                  (the MCP tools/call params); with calls, the tool list FILE is optional
  --format json   { source, tools: [{ tool, kind, rule, detail }], calls?: [...] }
  --check         exit 1 when no tool is a resolve or read: such an agent could never
                  establish a target, so every write would be blocked; with
                  --trust-annotations none, also when a tool has no rules entry
                  (each is named)

Exit codes: 0 printed, 1 --check found a problem, 2 bad input.`,
  async run(argv, io) {
    const split = splitAtDashes(argv);
    const { values, positionals } = parseArgs({
      args: split.options,
      allowPositionals: true,
      options: {
        rules: { type: 'string' },
        'name-verbs': { type: 'boolean' },
        'trust-annotations': { type: 'string' },
        format: { type: 'string', default: 'table' },
        check: { type: 'boolean' },
        call: { type: 'string', multiple: true },
        calls: { type: 'string' },
      },
    });
    if (values.format !== 'table' && values.format !== 'json')
      throw new UsageError(`--format must be table or json, got "${values.format}"`);
    const trust = annotationTrustOf(values['trust-annotations']);
    const fromServer = split.command.length > 0;
    const callOptions = (values.call ?? []).map(parseCallOption);
    const withCalls = callOptions.length > 0 || values.calls !== undefined;
    if (fromServer ? positionals.length !== 0 : positionals.length > 1 || (positionals.length === 0 && !withCalls))
      throw new UsageError('classify takes one tool list FILE, or an MCP server after --, or calls (--call, --calls)');

    let rules: unknown;
    if (values.rules !== undefined) {
      rules = readRulesFile(values.rules, io, 'classify');
      if (rules === undefined) return 2;
    }
    const calls = values.calls === undefined ? [] : readCallsFile(values.calls, io.err);
    if (calls === undefined) return 2;
    calls.push(...callOptions);
    let list: unknown = [];
    let source: string | undefined;
    if (fromServer) {
      const [command, ...args] = split.command;
      source = split.command.join(' ');
      const mcp = await importMcp(io, 'classify');
      if (!mcp) return 2;
      try {
        list = await mcp.listServerTools(command!, args);
      } catch (e) {
        io.err(`classify: cannot list the tools of ${source}: ${(e as Error).message}`);
        return 2;
      }
    } else if (positionals[0] !== undefined) {
      source = positionals[0];
      try {
        list = JSON.parse(readFileSync(source, 'utf8'));
      } catch (e) {
        io.err(`classify: ${source}: ${(e as Error).message}`);
        return 2;
      }
    }
    let rows: Classification[];
    let callRows: CallClassification[];
    try {
      const classify = classifyFromTools(trusted(list, trust), {
        rules,
        ...(values['name-verbs'] && { nameVerbs: true }),
      });
      rows = [...classify.tools.keys()].map((name) => classify.explain(name));
      callRows = classifyCalls(classify, rules, calls);
    } catch (e) {
      if (e instanceof ToolDeclarationError || e instanceof ClassifierRulesError) {
        io.err(`classify: ${source ?? 'calls'}: ${e.message}`);
        return 2;
      }
      throw e;
    }
    const looks = rows.filter((r) => r.kind === 'resolve' || r.kind === 'read').length;
    if (values.format === 'json')
      io.out(JSON.stringify({ source, tools: rows, ...(withCalls && { calls: callRows }) }, null, 2));
    else {
      if (source !== undefined) {
        io.out(formatClassification(rows));
        io.out(
          `\n${rows.length} tool${rows.length === 1 ? '' : 's'}: ${looks} resolve or read, ${rows.filter((r) => r.kind === 'write').length} write`,
        );
      }
      if (withCalls) io.out(`${source !== undefined ? '\n' : ''}${formatCalls(callRows)}`);
    }
    let found = 0;
    if (values.check && trust === 'none') {
      const missing = rows.filter((r) => r.rule !== 'rules').map((r) => r.tool);
      if (missing.length) {
        io.err(
          `classify --check: --trust-annotations none: ${missing.length} tool${missing.length === 1 ? ' has' : 's have'} no rules entry, so ${missing.length === 1 ? 'it is' : 'they are'} classified write: ${missing.join(', ')}`,
        );
        found = 1;
      }
    }
    if (values.check && source !== undefined && looks === 0) {
      io.err(
        'classify --check: no tool is a resolve or read: the session can never leave RESOLVING and every write will be blocked NO_VALIDATED_TARGET. Add annotations (readOnlyHint: true), rules (--rules), or opt in to --name-verbs.',
      );
      found = 1;
    }
    return found;
  },
};
