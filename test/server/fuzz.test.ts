import { request } from 'node:http';
import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  createMemoryRecorder,
  createSafetySession,
  parseRecording,
  RecordingParseError,
  replayRecordingStream,
  safeParseMachineDefinition,
} from 'assistant-safety';
import { MachineFileError, readMachineFile, saveMachineFile } from 'assistant-safety/node';
import { MAX_BODY_BYTES } from '../../src/server/machineRoutes.js';
import { loadRecordingText } from '../../viz/model/loadRecording.js';
import { root, startTestServer } from './helpers.js';

/*
 * Fuzzing the server's routes, the live hub's messages, recording lines and
 * machine definitions with fast-check: every input gets a clear answer (a
 * status below 500, a hub reply, a typed error), the server keeps serving and
 * Object.prototype is untouched. The seed is printed; replay a run with
 * FUZZ_SEED=<seed> npx vitest run test/server/fuzz.test.ts
 */

const seed = process.env.FUZZ_SEED !== undefined ? Number(process.env.FUZZ_SEED) : Date.now() % 2 ** 31;
const runs = (n: number) => Number(process.env.FUZZ_RUNS ?? n);
console.log(`fuzz: seed ${seed} (replay with FUZZ_SEED=${seed})`);

let server: Awaited<ReturnType<typeof startTestServer>>;
let machinesDir: string;
const prototypeKeys = () => Object.getOwnPropertyNames(Object.prototype).sort().join(',');
const pristine = prototypeKeys();
const untouched = () => {
  expect(prototypeKeys()).toBe(pristine);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(({} as Record<string, unknown>).x).toBeUndefined();
};

beforeAll(async () => {
  machinesDir = mkdtempSync(join(tmpdir(), 'fuzz-machines-'));
  cpSync(join(root, 'machines', 'assistant-safety.json'), join(machinesDir, 'assistant-safety.json'));
  server = await startTestServer({ machinesDir });
});
afterAll(() => server.close());

interface RawRequest {
  method: string;
  path: string;
  headers: [string, string][];
  body?: { size: number; chunked: boolean; json: boolean };
}

function send(r: RawRequest): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: server.port, path: r.path, method: r.method, setHost: false, agent: false },
      (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += String(d)));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        res.on('error', reject);
      },
    );
    for (const [k, v] of r.headers) req.appendHeader(k, v);
    // A refusal before the whole body is sent may reset the rest of the upload: the answer still counts.
    req.on('error', (e) => reject(e));
    if (r.body) {
      const payload = r.body.json
        ? Buffer.from(JSON.stringify({ baseVersion: 'absent', definition: 'x'.repeat(Math.max(0, r.body.size - 40)) }))
        : Buffer.alloc(r.body.size, 0x61);
      if (!r.body.chunked) req.setHeader('content-length', payload.length);
      req.end(payload);
    } else req.end();
  });
}

const segment = fc.oneof(
  fc.constantFrom(
    'api',
    'machines',
    'recordings',
    'sessions',
    'assistant-safety',
    'blocked.jsonl',
    'index.html',
    'app.js',
    'preview',
    '..',
    '.',
    '%2e%2e',
    '%2F',
    '%5c',
    '%00',
    '%E0',
    '%E0%A4%A',
    '%FF',
    '%',
    '__proto__',
    'constructor',
    'evil.json',
    '..%2f..%2fetc%2fpasswd',
    'live',
    '',
  ),
  fc.string({ maxLength: 12 }).map(encodeURIComponent),
  fc.string({ maxLength: 8, unit: 'binary' }).map((s) => encodeURIComponent(s)),
);
const randomPath = fc
  .tuple(
    fc.array(segment, { minLength: 0, maxLength: 5 }),
    fc.option(fc.constantFrom('?token=', '?x=1', '?a=%E0'), { nil: undefined }),
  )
  .map(([parts, query]) => '/' + parts.join('/') + (query ?? ''));
const path = fc.oneof(
  { arbitrary: randomPath, weight: 3 },
  {
    arbitrary: fc.constantFrom(
      '/api/machines/assistant-safety',
      '/api/machines/assistant-safety/preview',
      '/api/recordings/blocked.jsonl',
      '/api/recordings',
      '/api/machines',
      '/api/sessions',
      '/',
      '/app.js',
    ),
    weight: 2,
  },
);
const method = fc.oneof(
  { arbitrary: fc.constantFrom('GET', 'PUT'), weight: 4 },
  { arbitrary: fc.constantFrom('HEAD', 'POST'), weight: 2 },
  fc.constantFrom('DELETE', 'OPTIONS', 'PATCH', 'TRACE', 'PROPFIND'),
);

describe('fuzzing', () => {
  it('should answer every request with a clear status below 500 and keep serving', async () => {
    let cases = 0;
    const statuses = new Map<number, number>();
    const host = () => `127.0.0.1:${server.port}`;
    const headers = fc
      .record({
        token: fc.oneof(
          { arbitrary: fc.constant('right'), weight: 6 },
          fc.constantFrom('wrong', 'none', 'empty', 'query'),
        ),
        host: fc.oneof(
          { arbitrary: fc.constant('ok'), weight: 8 },
          fc.constantFrom('localhost', 'evil', 'two', 'none'),
        ),
        origin: fc.oneof(
          { arbitrary: fc.constant(undefined), weight: 6 },
          fc.constantFrom('ok', 'http://evil.example', 'null'),
        ),
        type: fc.constantFrom(undefined, 'application/json', 'text/plain', 'application/json; charset=utf-8'),
        extra: fc.array(
          fc.tuple(
            fc.constantFrom('x-a', 'cookie', 'accept', 'range', 'if-none-match'),
            fc.string({ maxLength: 20 }).map((s) => s.replace(/[^\x20-\x7e]/g, '')),
          ),
          { maxLength: 3 },
        ),
      })
      .map((h) => {
        const out: [string, string][] = [];
        if (h.host === 'ok') out.push(['host', host()]);
        if (h.host === 'localhost') out.push(['host', `localhost:${server.port}`]);
        if (h.host === 'evil') out.push(['host', 'evil.example']);
        if (h.host === 'two') out.push(['host', host()], ['host', 'evil.example']);
        if (h.token === 'right') out.push(['x-assistant-safety-token', server.token]);
        if (h.token === 'wrong') out.push(['x-assistant-safety-token', 'f'.repeat(64)]);
        if (h.token === 'empty') out.push(['x-assistant-safety-token', '']);
        if (h.origin === 'ok') out.push(['origin', `http://${host()}`]);
        else if (h.origin !== undefined) out.push(['origin', h.origin]);
        if (h.type !== undefined) out.push(['content-type', h.type]);
        out.push(...h.extra);
        return { headers: out, query: h.token === 'query' };
      });
    const body = fc.option(
      fc.record({
        size: fc.oneof(
          fc.nat(2000),
          fc.constantFrom(MAX_BODY_BYTES - 1, MAX_BODY_BYTES, MAX_BODY_BYTES + 1, MAX_BODY_BYTES + 65_536),
        ),
        chunked: fc.boolean(),
        json: fc.boolean(),
      }),
      { nil: undefined },
    );
    await fc.assert(
      fc.asyncProperty(method, path, headers, body, async (m, p, h, b) => {
        cases++;
        const withBody = b !== undefined && m !== 'GET' && m !== 'HEAD';
        const fullPath = h.query ? `${p}${p.includes('?') ? '&' : '?'}token=${server.token}` : p;
        const res = await send({
          method: m,
          path: fullPath,
          headers: h.headers,
          ...(withBody && { body: b }),
        }).catch((e: NodeJS.ErrnoException) => {
          // Only an upload cut short after the server answered its refusal may end this way.
          if (withBody && b!.size > MAX_BODY_BYTES && (e.code === 'ECONNRESET' || e.code === 'EPIPE'))
            return { status: 413, body: 'reset' };
          throw e;
        });
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        expect(res.status, `${m} ${fullPath}: ${res.body.slice(0, 200)}`).toBeLessThan(500);
        expect(res.status).toBeGreaterThanOrEqual(200);
        // Every refusal says why, except Node's own 400 for a request with no Host header at all.
        const noHost = !h.headers.some(([k]) => k === 'host');
        if (res.status >= 400 && m !== 'HEAD' && !noHost) expect(res.body.length).toBeGreaterThan(0);
      }),
      { seed, numRuns: runs(300) },
    );
    console.log(`fuzz routes: ${cases} requests, statuses ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`);
    untouched();
    const alive = await fetch(`${server.origin}/api/sessions`, {
      headers: { 'x-assistant-safety-token': server.token },
    });
    expect(alive.status).toBe(200);
    // Nothing was written by a refused save: the machine is as it was.
    expect(readMachineFile(machinesDir, 'assistant-safety').text).toBe(
      readFileSync(join(root, 'machines', 'assistant-safety.json'), 'utf8'),
    );
  });

  it('should answer every live message, garbage, huge or in a flood, and keep the hub working', async () => {
    const socket = () =>
      new Promise<{ ws: WebSocket; next: () => Promise<string | { closed: number }> }>((resolve, reject) => {
        const ws = new WebSocket(`${server.origin.replace('http', 'ws')}/live`, {
          headers: { 'x-assistant-safety-token': server.token },
        });
        const queue: (string | { closed: number })[] = [];
        const waiting: ((m: string | { closed: number }) => void)[] = [];
        const put = (m: string | { closed: number }) => {
          const w = waiting.shift();
          if (w) w(m);
          else queue.push(m);
        };
        ws.on('message', (d) => put(String(d)));
        ws.on('close', (code) => put({ closed: code }));
        ws.on('error', () => undefined);
        ws.on('open', () =>
          resolve({ ws, next: () => new Promise((r) => (queue.length ? r(queue.shift()!) : waiting.push(r))) }),
        );
        ws.on('unexpected-response', () => reject(new Error('refused')));
      });
    const recorder = createMemoryRecorder();
    const s = createSafetySession({ id: 'fuzz', recorder, now: () => 5 });
    s.beginToolCall({ id: 'w', kind: 'write', tool: 'restart' });
    const valid = recorder.entries;
    const message = fc.oneof(
      fc.string({ maxLength: 200 }),
      fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
      fc
        .record({
          type: fc.constantFrom('hello', 'entries', 'follow', 'ack', '__proto__'),
          role: fc.constantFrom('agent', 'viewer', 'admin', undefined),
          agentId: fc.oneof(fc.string({ maxLength: 120 }), fc.constant('__proto__')),
          from: fc.oneof(fc.nat(), fc.constantFrom(-1, 9007199254740000, 1.5)),
          entries: fc.oneof(
            fc.constant(valid),
            fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 }),
            fc.constant(valid.map((e) => ({ ...e, session: '__proto__' }))),
          ),
          session: fc.oneof(fc.string({ maxLength: 30 }), fc.constant('fuzz')),
        })
        .map((m) => JSON.stringify(m)),
      fc.constant('{"type":"hello","role":"viewer","__proto__":{"polluted":true}}'),
    );
    let messages = 0;
    let replies = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(message, { minLength: 1, maxLength: 8 }), async (batch) => {
        const { ws, next } = await socket();
        for (const text of batch) {
          messages++;
          ws.send(text);
          const reply = await next();
          if (typeof reply !== 'string') break; // closed (an agent id in use): a clear close code
          replies++;
          const parsed = JSON.parse(reply) as { type: string };
          expect(['ack', 'error', 'sessions', 'session-entries']).toContain(parsed.type);
          if (parsed.type === 'session-entries') {
            // A follow's backlog may come in several messages; the first reply is enough.
          }
        }
        ws.close();
      }),
      { seed, numRuns: runs(150) },
    );
    // A flood: a thousand messages at once on one socket, every one answered.
    const { ws, next } = await socket();
    for (let i = 0; i < 1000; i++) ws.send(i % 2 ? 'garbage' : '{"type":"follow","session":"x"}');
    let answered = 0;
    for (let i = 0; i < 1000; i++) if (typeof (await next()) === 'string') answered++;
    expect(answered).toBe(1000);
    // Huge: over the message limit, the socket is closed with 1009 and the hub goes on.
    ws.send('x'.repeat(9 * 1024 * 1024));
    let last = await next();
    while (typeof last === 'string') last = await next();
    expect(last).toEqual({ closed: 1009 });
    console.log(
      `fuzz live: ${messages} messages in ${runs(150)} sockets, ${replies} replies; flood of 1000 answered; huge closed 1009`,
    );
    untouched();
    const alive = await fetch(`${server.origin}/api/sessions`, {
      headers: { 'x-assistant-safety-token': server.token },
    });
    expect(alive.status).toBe(200);
  });

  it('should read every recording line as an entry or a RecordingParseError naming the line', async () => {
    const recorder = createMemoryRecorder();
    const s = createSafetySession({ id: 'lines', recorder, now: () => 7 });
    s.beginToolCall({ id: 'r', kind: 'read', tool: 'get' });
    s.endToolCall({ id: 'r', ok: true });
    const lines = recorder.entries.map((e) => JSON.stringify(e));
    const mutated = fc
      .tuple(fc.constantFrom(...lines), fc.nat(), fc.string({ maxLength: 5 }), fc.nat(3))
      .map(([line, at, insert, cut]) => {
        const i = at % (line.length + 1);
        return line.slice(0, i) + insert + line.slice(i + cut);
      });
    const line = fc.oneof(
      fc.constantFrom(...lines),
      mutated,
      fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
      fc.string({ maxLength: 50 }),
      fc.constant('{"__proto__":{"polluted":true}}'),
      fc.constantFrom('\uFEFF' + lines[0], '', '\r', '[[[[[[[[[[[['),
    );
    let cases = 0;
    let parsedOk = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(line, { maxLength: 6 }), fc.boolean(), async (ls, newline) => {
        cases++;
        const text = ls.join('\n') + (newline ? '\n' : '');
        let entries: unknown[] | undefined;
        try {
          entries = parseRecording(text);
          parsedOk++;
        } catch (e) {
          expect(e).toBeInstanceOf(RecordingParseError);
          expect((e as RecordingParseError).message).toMatch(/^line \d+: /);
        }
        const streamed = await replayRecordingStream([text]).then(
          (r) => r.count,
          (e: unknown) => {
            expect(e).toBeInstanceOf(RecordingParseError);
            return undefined;
          },
        );
        expect(streamed).toBe(entries?.length);
        const loaded = await loadRecordingText('fuzz.jsonl', text);
        if (entries && entries.length > 0) expect(loaded.ok).toBe(true);
      }),
      { seed, numRuns: runs(400) },
    );
    console.log(`fuzz recording lines: ${cases} texts, ${parsedOk} parsed whole`);
    untouched();
  });

  it('should save a machine definition only when it is valid, and refuse anything else with a MachineFileError', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fuzz-defs-'));
    cpSync(join(root, 'machines', 'assistant-safety.json'), join(dir, 'assistant-safety.json'));
    const base = JSON.parse(readFileSync(join(dir, 'assistant-safety.json'), 'utf8')) as Record<string, unknown>;
    const keys = ['initial', 'states', 'id', 'context', '__proto__', 'on', 'guards', 'x'];
    const definition = fc.oneof(
      fc.jsonValue({ maxDepth: 3 }),
      fc.tuple(fc.constantFrom(...keys), fc.jsonValue({ maxDepth: 2 })).map(([k, v]) =>
        // Last, so it wins over a key of the same name (JSON.parse keeps the last).
        JSON.parse(`${JSON.stringify(base).slice(0, -1)},${JSON.stringify(k)}:${JSON.stringify(v)}}`),
      ),
      fc.constant(JSON.parse(JSON.stringify(base).replace('"states":{', '"states":{"__proto__":{"polluted":true},'))),
      // Valid edits too: a description anyone may type.
      fc.string({ maxLength: 40 }).map((d) => {
        const edited = JSON.parse(JSON.stringify(base)) as { states: Record<string, { description?: string }> };
        edited.states.READING!.description = d;
        return edited;
      }),
    );
    let cases = 0;
    let saved = 0;
    await fc.assert(
      fc.asyncProperty(definition, async (def) => {
        cases++;
        const before = readMachineFile(dir, 'assistant-safety');
        expect(() => safeParseMachineDefinition(def)).not.toThrow();
        try {
          await saveMachineFile(dir, { name: 'assistant-safety', definition: def, baseVersion: before.version });
          saved++;
          expect(safeParseMachineDefinition(def).success).toBe(true);
        } catch (e) {
          expect(e).toBeInstanceOf(MachineFileError);
          expect(readMachineFile(dir, 'assistant-safety').text).toBe(before.text);
        }
      }),
      { seed, numRuns: runs(150) },
    );
    console.log(`fuzz machine definitions: ${cases} definitions, ${saved} saved (valid)`);
    untouched();
  });
});
