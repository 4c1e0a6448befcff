import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { classifyFromTools, ToolDeclarationError, type Classification } from '../classify/index.js';
import { ClassifierRulesError } from '../harness/classifier.js';
import { UsageError, type Command } from './Command.js';
import { withAnnotationTrust, type AnnotationTrust } from '../mcp/annotationTrust.js';
import { importMcp, readRulesFile, splitAtDashes } from './mcpGateway.js';
import { annotationTrustOf } from './gatewayOptions.js';

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

Classifies every tool of a tool list the way the gateway and classifyFromTools
do, so you review the classification before an agent runs: FILE is JSON in the
MCP tools/list result shape ({ "tools": [{ "name", "annotations"? }] }; a tool
may carry a "kind"), or, after --, an MCP server to start and list (stdio).

  --rules FILE    classifier rules (the createClassifier format); they win
  --name-verbs    opt in to the name-verb heuristic (get_, list_, read_ ... as reads)
  --trust-annotations all|destructive-only|none
                  how far annotations are believed, as in mcp-gateway (default all)
  --format json   one object per tool: { tool, kind, rule, detail }
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
      },
    });
    if (values.format !== 'table' && values.format !== 'json')
      throw new UsageError(`--format must be table or json, got "${values.format}"`);
    const trust = annotationTrustOf(values['trust-annotations']);
    const fromServer = split.command.length > 0;
    if (fromServer ? positionals.length !== 0 : positionals.length !== 1)
      throw new UsageError('classify takes one tool list FILE, or an MCP server after --');

    let rules: unknown;
    if (values.rules !== undefined) {
      rules = readRulesFile(values.rules, io, 'classify');
      if (rules === undefined) return 2;
    }
    let list: unknown;
    let source: string;
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
    } else {
      source = positionals[0]!;
      try {
        list = JSON.parse(readFileSync(source, 'utf8'));
      } catch (e) {
        io.err(`classify: ${source}: ${(e as Error).message}`);
        return 2;
      }
    }
    let rows: Classification[];
    try {
      const classify = classifyFromTools(trusted(list, trust), {
        rules,
        ...(values['name-verbs'] && { nameVerbs: true }),
      });
      rows = [...classify.tools.keys()].map((name) => classify.explain(name));
    } catch (e) {
      if (e instanceof ToolDeclarationError || e instanceof ClassifierRulesError) {
        io.err(`classify: ${source}: ${e.message}`);
        return 2;
      }
      throw e;
    }
    const looks = rows.filter((r) => r.kind === 'resolve' || r.kind === 'read').length;
    if (values.format === 'json') io.out(JSON.stringify({ source, tools: rows }, null, 2));
    else {
      io.out(formatClassification(rows));
      io.out(
        `\n${rows.length} tool${rows.length === 1 ? '' : 's'}: ${looks} resolve or read, ${rows.filter((r) => r.kind === 'write').length} write`,
      );
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
    if (values.check && looks === 0) {
      io.err(
        'classify --check: no tool is a resolve or read: the session can never leave RESOLVING and every write will be blocked NO_VALIDATED_TARGET. Add annotations (readOnlyHint: true), rules (--rules), or opt in to --name-verbs.',
      );
      found = 1;
    }
    return found;
  },
};
