import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  AgentHooksError,
  mergeCodexHooks,
  mergeCursorHooks,
  mergeGeminiSettings,
  type HookAgent,
  type MergedHooks,
} from '../hooks/mergeAgentHooks.js';
import { UsageError, type CliIO } from './Command.js';
import {
  installedHookArgs,
  installArgs,
  findProjectRoot,
  refuseWithoutPackage,
  PROJECT_BIN,
  quote,
  refuseHookOptions,
  writeHookSettings,
} from './hookInstallFile.js';

/*
 * `hook install codex|gemini|cursor`: the gate's hook command merged into the agent's own hook
 * configuration. A project file is shared with the repository, so its command never holds this
 * machine's paths: it finds the project's installation by walking up from where the agent runs
 * it, and every failure (no installation, no node, a crash) ends as exit 2 with a reason on
 * stderr, which all three agents take as "refuse the call".
 */

interface AgentInstall {
  label: string;
  /** The project file, relative to the project folder. */
  project: string;
  /** The user's file. */
  user(): string;
  /** Where the project command starts looking for the installation (a shell word). */
  start: string;
  merge(settings: unknown, command: string): MergedHooks;
}

export const AGENT_INSTALLS: Record<HookAgent, AgentInstall> = {
  codex: {
    label: 'Codex CLI',
    project: join('.codex', 'hooks.json'),
    user: () => join(process.env.CODEX_HOME || join(homedir(), '.codex'), 'hooks.json'),
    start: '"$PWD"',
    merge: mergeCodexHooks,
  },
  gemini: {
    label: 'Gemini CLI',
    project: join('.gemini', 'settings.json'),
    user: () => join(homedir(), '.gemini', 'settings.json'),
    start: '"${GEMINI_PROJECT_DIR:-$PWD}"',
    merge: mergeGeminiSettings,
  },
  cursor: {
    label: 'Cursor',
    project: join('.cursor', 'hooks.json'),
    user: () => join(homedir(), '.cursor', 'hooks.json'),
    start: '"$PWD"',
    merge: mergeCursorHooks,
  },
};

/** Runs the found command and turns every failure into exit 2 with a reason on stderr. */
function guarded(run: string, missing: string): string {
  return (
    `if [ -f "$f" ]; then ${run} || { echo "assistant-safety: the hook failed; the call is refused" >&2; exit 2; }; ` +
    `else echo "assistant-safety: ${missing}; the call is refused" >&2; exit 2; fi`
  );
}

/**
 * The hook command for a project's shared file: the project's own installation, found by
 * walking up from where the agent runs the hook, so the same line works in every clone.
 */
export function projectAgentCommand(agent: HookAgent, args: string): string {
  return (
    `d=${AGENT_INSTALLS[agent].start}; while [ "$d" != / ] && [ ! -f "$d/${PROJECT_BIN}" ]; do d=$(dirname "$d"); done; ` +
    `f="$d/${PROJECT_BIN}"; ` +
    guarded(
      `node "$f" hook ${agent}${args}`,
      'not installed in this project: run npm install --save-dev assistant-safety there',
    )
  );
}

/** This installation's command (for the user's own file): the running node and the built bin, absolute paths. */
function ownCommand(agent: HookAgent, args: string): string {
  const bin = fileURLToPath(new URL('./bin.js', import.meta.url));
  if (!existsSync(bin)) throw new UsageError(`cannot find the built command at ${bin}; pass --command`);
  return (
    `f=${quote(bin)}; ` +
    guarded(
      `${quote(process.execPath)} "$f" hook ${agent}${args}`,
      `${bin.replace(/(["\\$`])/g, '\\$1')} is gone: reinstall assistant-safety and run hook install ${agent} --user again`,
    )
  );
}

/** `hook install codex|gemini|cursor`: merges the hook entries into the agent's file (atomically), or prints the diff. */
export async function runAgentHookInstall(agent: HookAgent, argv: string[], io: CliIO): Promise<number> {
  const install = AGENT_INSTALLS[agent];
  const { values, positionals, passed } = installArgs(argv);
  if (positionals.length !== 1 || positionals[0] !== agent)
    throw new UsageError(`hook install ${agent}: unexpected ${positionals.filter((p) => p !== agent).join(' ')}`);
  // The project command has found the project folder as "$d" by the time it runs the hook.
  // The project is found from here (or from the settings file named) up, as the installed command
  // finds it: run from a subfolder, the settings still go to the project's root.
  const named = values.settings === undefined ? undefined : resolve(values.settings);
  const start = named === undefined ? process.cwd() : dirname(named);
  const found = values.user ? undefined : findProjectRoot(start);
  const root = found ?? process.cwd();
  const hook = installedHookArgs(values, passed, false, '"$d"', root);
  if ('error' in hook) return refuseHookOptions(agent, hook.error, io);
  const { args } = hook;
  const path = resolve(values.settings ?? (values.user ? install.user() : join(root, install.project)));
  let command: string;
  if (values.command !== undefined) command = `${values.command}${args}`;
  else if (values.user) command = ownCommand(agent, args);
  else {
    // The project form runs the project's own installation: refused where there is none.
    if (found === undefined) return refuseWithoutPackage(start, io, named);
    command = projectAgentCommand(agent, args);
  }
  if (hook.note !== undefined) io.err(`hook install: ${hook.note}`);
  return writeHookSettings(
    path,
    command,
    install.merge,
    (e) => e instanceof AgentHooksError,
    { dryRun: values['dry-run'] === true, label: ` for ${install.label}` },
    io,
  );
}
