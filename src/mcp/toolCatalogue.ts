import { createHash } from 'node:crypto';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { classifyFromTools, type ExplainingClassifier, type ToolDeclaration } from '../classify/index.js';
import type { CallDescriptor } from '../harness/classifier.js';
import { TOOL_KINDS, type ToolKind } from '../index.js';
import { withAnnotationTrust, type AnnotationTrust } from './annotationTrust.js';
import { asObject, messageOf } from './jsonRpc.js';
import { didYouMean } from '../core/didYouMean.js';

/**
 * What a rules file says that the server's tool list contradicts: a tool the server does not list,
 * a target argument its input schema does not have. Either is most likely a typo, and would
 * otherwise show only as calls judged by other rules or writes blocked for an unvalidated target.
 */
function rulesAgainstTools(rules: unknown, tools: readonly unknown[]): string[] {
  const named = asObject(asObject(rules)?.['tools']);
  if (!named) return [];
  const listed = new Map<string, string[] | undefined>();
  for (const tool of tools) {
    const o = asObject(tool);
    if (typeof o?.name !== 'string') continue;
    const properties = asObject(asObject(o.inputSchema)?.['properties']);
    listed.set(o.name, properties ? Object.keys(properties) : undefined);
  }
  const out: string[] = [];
  for (const [name, rule] of Object.entries(named)) {
    if (!listed.has(name)) {
      const guess = didYouMean(name, [...listed.keys()]);
      out.push(
        `the rules name tool ${name}, which the server does not list${guess ? ` (did you mean ${guess}?)` : ''}`,
      );
      continue;
    }
    const args = listed.get(name);
    const targets = asObject(rule)?.['targets'];
    if (!args || !Array.isArray(targets)) continue;
    for (const path of targets) {
      const first = typeof path === 'string' ? path.split('.')[0]! : '';
      if (first === '' || args.includes(first)) continue;
      const guess = didYouMean(first, args);
      out.push(
        `the rules for ${name} bind targets from ${first}, an argument its input schema does not have${guess ? ` (did you mean ${guess}?)` : ''} (it has ${args.join(', ') || 'none'})`,
      );
    }
  }
  return out;
}

/**
 * The writes among the listed tools whose rule names no target arguments, when some rule does: with
 * `targets: 'bind'` binding checks nothing of them, which a user who asked for binding should hear.
 * (When no rule names targets at all, the gateway's command line says so once, at start.)
 */
function unboundWrites(rules: unknown, names: readonly string[], kindOf: (name: string) => ToolKind): string[] {
  const named = asObject(asObject(rules)?.['tools']);
  const hasTargets = (name: string) => Array.isArray(asObject(named?.[name])?.['targets']);
  if (!named || !Object.keys(named).some(hasTargets)) return [];
  return names.filter((name) => kindOf(name) === 'write' && !hasTargets(name));
}

/*
 * The tool catalogue: what the server declares of its tools, pinned when first seen, and the
 * kind of each call worked out from it (rules first, then the annotations as far as they are
 * trusted). It lists the server's tools itself (every page) when a call needs them, and again
 * after a list_changed; a tool whose definition changed after it was pinned is a write.
 */

/** A tool whose definition changed after the gateway pinned it. */
export interface ToolDefinitionChange {
  tool: string;
  /** `Date.now()` when the gateway saw the change. */
  at: number;
  /** What changed: `annotations`, `inputSchema`, or both. */
  changed: Array<'annotations' | 'inputSchema'>;
  annotations: { pinned: unknown; now: unknown };
}

/** What the gateway decides of a call before it runs: the kind and what the gate takes with it. */
export type Explained = CallDescriptor & { rule: string; detail: string };

/** Classifier rules whose outcome is the tool's alone, whatever the call's arguments. */
const ARGUMENT_FREE_RULES: ReadonlySet<string> = new Set(['kind', 'annotations', 'name-verb']);

/** JSON with object keys sorted, so equal definitions compare equal whatever their key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const o = asObject(value);
  if (o)
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

/** What is pinned of a tool: its annotations and a hash of its input schema. */
interface Pin {
  annotations: string;
  inputSchema: string;
  raw: unknown;
}
const pinOf = (tool: Record<string, unknown>): Pin => ({
  annotations: canonical(tool.annotations ?? null),
  inputSchema: createHash('sha256')
    .update(canonical(tool.inputSchema ?? null))
    .digest('hex'),
  raw: tool.annotations,
});

export interface ToolCatalogueOptions {
  rules?: unknown;
  nameVerbs?: boolean | undefined;
  classify?: ((toolName: string, args: unknown, declaration: ToolDeclaration | undefined) => ToolKind) | undefined;
  trust: AnnotationTrust;
  log: (line: string) => void;
  /** One page of the server's `tools/list` (the answer message); rejects when there is none. */
  listPage: (cursor: string | undefined) => Promise<JSONRPCMessage>;
  /** The gateway stopped: a listing in progress does not list again. */
  stopped: () => boolean;
  /** Whether the session binds writes to targets (`targets: 'bind'`): the first listing then names the writes no rule binds. */
  bindsTargets?: () => boolean;
}

/** See {@link createToolCatalogue}. */
export interface ToolCatalogue {
  /** The tools the server declared, as pinned when each was first listed. */
  readonly tools: ReadonlyMap<string, ToolDeclaration>;
  /** Tools whose definition changed after it was pinned, in the order seen (each counted once). */
  readonly definitionChanges: readonly ToolDefinitionChange[];
  /** Pins what is new in a tool list (the server's answer to anyone's `tools/list`). */
  learn(tools: unknown[]): void;
  /** The server said at initialize whether it has tools (none: never listed). */
  setServerHasTools(has: boolean): void;
  /** The server is initialised: learn the declarations before the first call needs them. */
  serverInitialized(): void;
  /** The server's `notifications/tools/list_changed`: list again now. */
  listChanged(): void;
  /** Whether a call to `name` must wait for a listing before it is classified. */
  needsListing(name: string): boolean;
  /** Lists the server's tools (every page); resolves when done (a failure is logged, never thrown). */
  fetchTools(): Promise<void>;
  /** The kind a call would get now, and why. */
  explain(name: string, args?: unknown): Explained;
  /** {@link explain}, kept per tool when nothing of the call's arguments goes into it. */
  describe(name: string, args: unknown): Explained;
  /** The targets a result of `name` reveals by its rule's `discovers`, each with its field. */
  discover(name: string, result: unknown, args?: unknown): { target: string; field: string }[];
}

/**
 * The gateway's tool catalogue. Throws a `ClassifierRulesError` naming the path when `rules` is bad.
 *
 * @example
 * const catalogue = createToolCatalogue({ trust: 'all', log: console.error, listPage, stopped: () => false });
 * catalogue.learn([{ name: 'get_status', annotations: { readOnlyHint: true } }]);
 * catalogue.explain('get_status').kind; // 'read'
 */
export function createToolCatalogue(options: ToolCatalogueOptions): ToolCatalogue {
  const { trust, log } = options;
  const classifierOptions = { rules: options.rules, nameVerbs: options.nameVerbs };
  // Validates the rules now: a bad rules file fails before any traffic, naming the path.
  let classifier: ExplainingClassifier = classifyFromTools([], classifierOptions);
  /** {@link describe}'s per-tool results; emptied whenever the server's tool list is learnt. */
  const describedByName = new Map<string, Explained>();
  /** Each tool's definition as first seen, and its declaration as the classifier uses it. */
  const pins = new Map<string, Pin>();
  const declarations = new Map<string, Record<string, unknown>>();
  const changes: ToolDefinitionChange[] = [];
  const changed = new Map<string, ToolDefinitionChange>();
  let listedOnce = false;
  let rulesChecked = false;
  let serverHasTools = true;
  /** The declarations are a full listing, not outdated by a list_changed. */
  let listFresh = false;
  let listing: Promise<void> | undefined;
  let listAgain = false;

  function learn(tools: unknown[]) {
    // The declarations, pins or changes may move: what was worked out per tool is worked out again.
    describedByName.clear();
    const added: string[] = [];
    for (const tool of tools) {
      const o = asObject(tool);
      const name = o?.name;
      if (typeof name !== 'string' || name.length === 0) continue;
      const pin = pinOf(o!);
      const pinned = pins.get(name);
      if (!pinned) {
        pins.set(name, pin);
        // What MCP declares and the gateway uses: the name, the annotations, whether there is an output schema.
        // (A non-standard field such as `kind` in a server's list is not taken as a classification.)
        const { annotations, outputSchema } = o!;
        declarations.set(
          name,
          withAnnotationTrust(
            {
              name,
              ...(asObject(annotations) && { annotations }),
              ...(outputSchema !== undefined && { outputSchema }),
            },
            trust,
          ),
        );
        added.push(name);
        continue;
      }
      if (changed.has(name)) continue;
      const what: ToolDefinitionChange['changed'] = [];
      if (pinned.annotations !== pin.annotations) what.push('annotations');
      if (pinned.inputSchema !== pin.inputSchema) what.push('inputSchema');
      if (what.length === 0) continue;
      const change: ToolDefinitionChange = {
        tool: name,
        at: Date.now(),
        changed: what,
        annotations: { pinned: pinned.raw, now: o!.annotations },
      };
      changed.set(name, change);
      changes.push(change);
      log(
        `tool ${name} changed its ${what.join(' and ')} after it was pinned (annotations ${JSON.stringify(pinned.raw ?? null)} -> ${JSON.stringify(o!.annotations ?? null)}): it is a write from now on unless a rule names it (definition changes: ${changes.length})`,
      );
    }
    if (added.length === 0) return;
    try {
      classifier = classifyFromTools([...declarations.values()], classifierOptions);
    } catch (e) {
      // A malformed declaration must not make anything a read: classify without declarations.
      log(`the server's tool list cannot be used (${messageOf(e)}); its tools are classified as undeclared`);
      classifier = classifyFromTools([], classifierOptions);
    }
    for (const name of added) {
      const { kind, detail, rule } = explain(name);
      if (listedOnce) log(`new tool ${name}: ${kind} (${detail})`);
      if (trust === 'none' && rule !== 'rules')
        log(`tool ${name} has no rules entry (--trust-annotations none): write`);
    }
    listedOnce = true;
  }

  async function listOnce() {
    const tools: unknown[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const answer = await options.listPage(cursor);
      const result = 'result' in answer ? asObject(answer.result) : undefined;
      if (!result) throw new Error(`tools/list failed: ${JSON.stringify('error' in answer ? answer.error : answer)}`);
      if (Array.isArray(result.tools)) tools.push(...(result.tools as unknown[]));
      cursor = typeof result.nextCursor === 'string' ? result.nextCursor : undefined;
    } while (cursor !== undefined && ++pages < 1000);
    learn(tools);
    // Once, against the first full listing: a typo in the rules is said before any call meets it.
    if (!rulesChecked) {
      rulesChecked = true;
      for (const problem of rulesAgainstTools(options.rules, tools)) log(problem);
      if (options.bindsTargets?.()) {
        const unbound = unboundWrites(options.rules, [...declarations.keys()], (name) => explain(name).kind);
        if (unbound.length > 0)
          log(
            `--targets bind: the rules name no target arguments ("targets") of ${unbound.join(', ')}: binding checks nothing of ${unbound.length > 1 ? 'these writes' : 'this write'}, which ${unbound.length > 1 ? 'are' : 'is'} gated as a write without targets`,
          );
      }
    }
    listFresh = true;
  }

  /** Lists the server's tools (every page) and pins what is new; a list_changed during a listing lists again. */
  function fetchTools() {
    listing ??= (async () => {
      do {
        listAgain = false;
        await listOnce();
      } while (listAgain && !options.stopped());
    })()
      .catch((e: unknown) => log(`could not list the server's tools: ${messageOf(e)}`))
      .finally(() => (listing = undefined));
    return listing;
  }

  function classify(name: string, args: unknown): ToolKind {
    if (!options.classify) return classifier(name, args);
    let kind: unknown;
    try {
      kind = options.classify(name, args, classifier.tools.get(name));
    } catch (e) {
      log(`the classifier threw for ${name}: ${messageOf(e)}; classified as write`);
      return 'write';
    }
    return (TOOL_KINDS as readonly unknown[]).includes(kind) ? (kind as ToolKind) : 'write';
  }

  function explain(name: string, args?: unknown): Explained {
    let base: Explained;
    if (options.classify) base = { kind: classify(name, args), rule: 'classify', detail: 'the classify option' };
    else {
      const { tool: _tool, ...explained } = classifier.explain(name, args);
      base = explained;
    }
    // MCP's openWorldHint: the tool's output is open-world content (the web, mail): seen, never validated.
    const openWorld = asObject(pins.get(name)?.raw)?.openWorldHint === true;
    if (openWorld && base.trust === undefined) base = { ...base, trust: 'untrusted' };
    const change = changed.get(name);
    if (!change || base.rule === 'rules') return base;
    const { selfVerifying: _selfVerifying, ...rest } = base;
    return {
      ...rest,
      kind: 'write',
      rule: 'pinned',
      detail: `pinned: its ${change.changed.join(' and ')} changed after it was pinned, so write (fail closed; a rule can name it)`,
    };
  }

  return {
    get tools() {
      return classifier.tools;
    },
    definitionChanges: changes,
    learn,
    setServerHasTools: (has) => void (serverHasTools = has),
    serverInitialized: () => void (serverHasTools && fetchTools()),
    listChanged() {
      listFresh = false;
      listAgain = true;
      if (serverHasTools) void fetchTools();
    },
    needsListing: (name) => serverHasTools && (listing !== undefined || (!listFresh && !pins.has(name))),
    fetchTools,
    explain,
    discover: (name, result, args) => classifier.discover(name, result, args),
    describe(name, args) {
      const known = describedByName.get(name);
      if (known) return known;
      const described = explain(name, args);
      if (!options.classify && ARGUMENT_FREE_RULES.has(described.rule)) describedByName.set(name, described);
      return described;
    },
  };
}
