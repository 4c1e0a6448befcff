import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/*
 * The package as an engineer gets it: packed to a tarball, installed into an
 * empty project (offline, from the tarball and npm's cache), used from there.
 * `npm test` builds before vitest runs, so the tarball holds this tree's build.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = (name: string) => join(root, 'node_modules', '.bin', name);
/** The root entry's budget, bundled for a browser and gzipped (xstate and zod included). */
// 40 KB until target binding, attestation, shadow mode, the settle rule and machine kinds joined the core (44.3 KB);
// 48 KB until the compiled gate's fast paths (draft actions, one-shape context copies, field-by-field events,
// the cached checksum words) joined it (48.3 KB): the root entry holds both the compiled table and XState;
// 50 KB until provenance (the user's words, call digests, approvals, egress) joined it (51.5 KB);
// 54 KB until the coding profile (edited files and their cover, the profile list, snapshot v4) joined it (54.2 KB);
// 56 KB until the kind sessions' replayer and snapshot reader (56.0 KB) and the refusal of a polluted
// Object.prototype joined it (56.2 KB);
// 57 KB until the replay and parse functions refused a misspelt option, with a swap of two letters
// counted as one slip (57.1 KB);
// 58 KB until a restore told a snapshot changed after it was written (a marked checksum, a warning)
// and the timer options were bounded (58.0 KB).
const CORE_BUDGET_BYTES = 59 * 1024;

let work: string;
let project: string;
let tarball: string;

function run(cmd: string, args: string[], cwd: string): SpawnSyncReturns<string> {
  const result = spawnSync(cmd, args, { cwd, encoding: 'utf8', timeout: 120_000 });
  if (result.status !== 0) {
    throw new Error(`${cmd} ${args.join(' ')} exited ${result.status}\n${result.stdout}\n${result.stderr}`);
  }
  return result;
}

beforeAll(() => {
  if (!existsSync(join(root, 'dist', 'src', 'index.js')) || !existsSync(join(root, 'dist', 'viz', 'index.html'))) {
    throw new Error('the package is not built: run `npm run build` (npm test does) before this test');
  }
  work = mkdtempSync(join(tmpdir(), 'assistant-safety-pack-'));
  // --ignore-scripts: prepare would build again; npm test has just built this tree.
  const packed = run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], root);
  tarball = join(work, (JSON.parse(packed.stdout) as { filename: string }[])[0]!.filename);
  project = join(work, 'consumer');
  mkdirSync(project);
  const spec = `file:../${basename(tarball)}`;
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module', dependencies: { 'assistant-safety': spec } }),
  );
  writeFileSync(join(project, 'package-lock.json'), JSON.stringify(consumerLock(spec)));
  // Offline: every package comes from the tarball or npm's cache (which `npm ci` of this repository filled).
  run('npm', ['ci', '--offline', '--no-audit', '--no-fund', '--ignore-scripts'], project);
}, 180_000);

interface LockEntry {
  version: string;
  resolved?: string;
  integrity?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  dev?: boolean;
  optional?: boolean;
  peer?: boolean;
  license?: string;
  bin?: Record<string, string>;
  engines?: Record<string, string>;
}

/**
 * The consumer's lockfile: the package from the tarball and, for its runtime
 * dependencies, the very versions this repository's lockfile resolved (npm
 * would need the registry to resolve ranges; a lockfile lets `npm ci` work
 * from the cache alone). Optional peers are left out, as npm leaves them.
 */
function consumerLock(spec: string) {
  const ours = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, LockEntry & { name?: string }>;
  };
  const self = ours.packages['']!;
  const packages: Record<string, LockEntry> = {};
  const add = (name: string) => {
    const key = `node_modules/${name}`;
    if (packages[key]) return;
    const entry = ours.packages[key];
    if (!entry) throw new Error(`${name} is not in package-lock.json`);
    const { dev: _dev, peer: _peer, ...rest } = entry;
    packages[key] = rest;
    for (const dep of Object.keys(entry.dependencies ?? {})) add(dep);
  };
  for (const dep of Object.keys(self.dependencies ?? {})) add(dep);
  packages['node_modules/assistant-safety'] = {
    version: self.version,
    resolved: spec,
    dependencies: self.dependencies ?? {},
    ...(self.peerDependencies && { peerDependencies: self.peerDependencies }),
    ...(self.peerDependenciesMeta && { peerDependenciesMeta: self.peerDependenciesMeta }),
    ...(self.bin && { bin: self.bin }),
    license: self.license ?? 'MIT',
  };
  return {
    name: 'consumer',
    lockfileVersion: 3,
    requires: true,
    packages: { '': { name: 'consumer', dependencies: { 'assistant-safety': spec } }, ...packages },
  };
}

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the packed package, installed into an empty project', () => {
  it('should hold the built app, the machines and the recordings', () => {
    const installed = join(project, 'node_modules', 'assistant-safety');
    expect(existsSync(join(installed, 'dist', 'viz', 'index.html'))).toBe(true);
    expect(existsSync(join(installed, 'machines', 'assistant-safety.json'))).toBe(true);
    expect(existsSync(join(installed, 'dist', 'src', 'index.d.ts'))).toBe(true);
  });

  it('should type-check a consumer of every runtime-neutral and Node subpath with strict and no skipLibCheck', () => {
    writeFileSync(
      join(project, 'consumer.ts'),
      `import { createSafetySession, createToolLoop, pulseClassifier, type SessionState } from 'assistant-safety';
import { invariants, exploreMachine } from 'assistant-safety/testing';
import { toMermaid } from 'assistant-safety/export';
import { applyMachineEdit } from 'assistant-safety/editor';
import { LIVE_PATH } from 'assistant-safety/live';
import { createFileRecorder, createLiveRecorder } from 'assistant-safety/node';
import { startServer } from 'assistant-safety/server';

const session = createSafetySession();
const state: SessionState = session.state;
const loop = createToolLoop({ session, classify: pulseClassifier, execute: async () => ({ ok: true }) });
export const used = [state, loop, invariants.length, exploreMachine, toMermaid, applyMachineEdit, LIVE_PATH, createFileRecorder, createLiveRecorder, startServer];
`,
    );
    // Only Node's own types are given; anything else a declaration needs must come with the package.
    mkdirSync(join(project, 'types'));
    symlinkSync(join(root, 'node_modules', '@types', 'node'), join(project, 'types', 'node'));
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          skipLibCheck: false,
          noEmit: true,
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          lib: ['ES2023'],
          typeRoots: ['./types'],
          types: ['node'],
        },
        files: ['consumer.ts'],
      }),
    );
    const result = spawnSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.'], {
      cwd: project,
      encoding: 'utf8',
    });
    expect(result.stdout + result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('should bundle the root entry for a browser with no node: import, within the size budget', () => {
    writeFileSync(join(project, 'entry.js'), `export * from 'assistant-safety';\n`);
    const out = join(project, 'bundle.js');
    const meta = join(project, 'meta.json');
    run(
      bin('esbuild'),
      [
        'entry.js',
        '--bundle',
        '--minify',
        '--format=esm',
        '--platform=browser',
        `--outfile=${out}`,
        `--metafile=${meta}`,
      ],
      project,
    );
    const inputs = Object.keys((JSON.parse(readFileSync(meta, 'utf8')) as { inputs: object }).inputs);
    expect(inputs.filter((i) => i.startsWith('node:') || /node_modules\/ws\//.test(i))).toEqual([]);
    const code = readFileSync(out);
    const gzipped = gzipSync(code, { level: 9 }).length;
    console.log(
      `root entry for the browser: ${(code.length / 1024).toFixed(1)} KB minified, ${(gzipped / 1024).toFixed(1)} KB gzipped (budget ${CORE_BUDGET_BYTES / 1024} KB)`,
    );
    expect(gzipped).toBeLessThanOrEqual(CORE_BUDGET_BYTES);
  });

  it('should install with no install script to run: no warning, nothing built on install', () => {
    const installed = JSON.parse(
      readFileSync(join(project, 'node_modules', 'assistant-safety', 'package.json'), 'utf8'),
    ) as {
      scripts?: Record<string, string>;
    };
    // `prepare` stays in the manifest (a clone's `npm ci` builds with it); npm runs it only for a git or
    // directory install, never for a registry or tarball one, which the install below shows.
    for (const hook of ['preinstall', 'install', 'postinstall'])
      expect(installed.scripts?.[hook], `the published package.json has a ${hook} script`).toBeUndefined();
    // The same tarball installed with scripts allowed, as a user does: npm has nothing to warn about.
    const second = join(work, 'consumer-with-scripts');
    mkdirSync(second);
    const spec = `file:../${basename(tarball)}`;
    writeFileSync(
      join(second, 'package.json'),
      JSON.stringify({ name: 'consumer', private: true, type: 'module', dependencies: { 'assistant-safety': spec } }),
    );
    writeFileSync(join(second, 'package-lock.json'), JSON.stringify(consumerLock(spec)));
    // --foreground-scripts: npm prints every lifecycle script it runs, so one of ours would show.
    const result = run('npm', ['ci', '--offline', '--no-audit', '--no-fund', '--foreground-scripts'], second);
    const printed = `${result.stdout}${result.stderr}`;
    expect(printed).not.toMatch(/install-scripts|allowScripts|EBADENGINE/);
    expect(printed).not.toMatch(/assistant-safety@[^ ]+ (preinstall|install|postinstall|prepare)\b/);
    expect(printed).not.toMatch(/npm run build|tsc -p|vite build/);
  });

  it('should build once when packed: the scripts npm pack runs hold one build', () => {
    // A script shell that only logs what npm asks it to run: what `npm pack` runs, without running it.
    const log = join(work, 'scripts.log');
    const shell = join(work, 'log-shell.sh');
    writeFileSync(shell, `#!/bin/sh\nprintf '%s\\n' "$2" >> '${log}'\n`, { mode: 0o755 });
    run('npm', ['pack', '--dry-run', '--script-shell', shell], root);
    const ran = readFileSync(log, 'utf8').trim().split('\n');
    expect(ran.filter((command) => /\bbuild\b|\btsc\b|\bvite build\b/.test(command))).toEqual(['npm run build']);
  });

  it("should map a thrown error's stack to a source file the installed package holds", () => {
    writeFileSync(
      join(project, 'throws.mjs'),
      `import { parseRecording } from 'assistant-safety';\ntry { parseRecording(42); } catch (e) { console.log(e.stack); }\n`,
    );
    const { stdout } = run(process.execPath, ['--enable-source-maps', 'throws.mjs'], project);
    const installed = join(project, 'node_modules', 'assistant-safety');
    // The first frame in the package, as the source map names it: .../assistant-safety/src/....ts:LINE:COLUMN
    const frame = /\(?(\/[^()\s]*assistant-safety\/src\/[^()\s]+\.ts):(\d+):(\d+)\)?/.exec(stdout);
    expect(frame, stdout).not.toBeNull();
    const [, file, line] = frame!;
    expect(file!.startsWith(installed), `${file} is inside the installed package`).toBe(true);
    expect(existsSync(file!), `${file} exists`).toBe(true);
    const text = readFileSync(file!, 'utf8').split('\n')[Number(line) - 1]!;
    expect(text).toMatch(/throw new TypeError/);
  });

  it('should run `npx assistant-safety check` from the installed copy', () => {
    const result = spawnSync('npx', ['--no-install', 'assistant-safety', 'check'], { cwd: project, encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/invariant/i);
  });

  it("should run the README's examples as written: the embedding example and the minimal agent", () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const blocks = [...readme.matchAll(/```ts\n(import [^\n]* from 'assistant-safety';\n[\s\S]*?)```/g)].map(
      (m) => m[1]!,
    );
    expect(blocks.length, 'the README has two ts blocks importing assistant-safety').toBe(2);
    // As docs/install.md says: TypeScript through tsx (this repository's copy; the consumer need not install it).
    const tsx = pathToFileURL(join(root, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
    const outputs = blocks.map((code, i) => {
      writeFileSync(join(project, `example${i}.mts`), code);
      return run(process.execPath, ['--import', tsx, `example${i}.mts`], project).stdout;
    });
    expect(outputs[0]).toMatch(/reasonCode: 'NO_VALIDATED_TARGET'/);
    expect(outputs[0]).toMatch(/^READING null$/m);
    expect(outputs[1]).toMatch(/^\[ 'set_role: blocked' \]$/m);
    expect(outputs[1]).toMatch(/^true READING$/m);
  });

  it('should serve the app from the installed copy', async () => {
    const child = spawn(join(project, 'node_modules', '.bin', 'assistant-safety'), ['serve', '--port', '0'], {
      cwd: project,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        let err = '';
        const timer = setTimeout(() => reject(new Error(`serve printed no URL: ${out} ${err}`)), 20_000);
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const match = /http:\/\/127\.0\.0\.1:\d+\/\S*/.exec(out);
          if (match) {
            clearTimeout(timer);
            resolve(match[0]);
          }
        });
        child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
        child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${err}`)));
      });
      const page = await fetch(url);
      expect(page.status).toBe(200);
      expect(await page.text()).toMatch(/<div id="root">/);
      const refused = await fetch(new URL('/api/recordings', url).origin + '/api/recordings');
      expect(refused.status).toBe(401);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
