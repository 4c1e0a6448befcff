import { appendFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

/*
 * A small real MCP server for the gateway tests and the bench, built with the
 * SDK: annotated reads, an annotated write, an unannotated tool, a tool that
 * throws, a slow tool (to cancel or to kill mid-call), a write that ignores
 * cancellation, a notification flood, an over-long result, a resource and a
 * prompt.
 *
 *   node --import tsx test/mcp/fixtureServer.ts [--log FILE] [--pid-file FILE] [--stubborn]
 *
 * --log FILE appends one JSON line per tool run ({ tool, event }), so a test
 * can see what the server really ran; --pid-file FILE receives its pid;
 * --stubborn makes it ignore SIGTERM and the end of its stdin (only SIGKILL ends it).
 */

const { values } = parseArgs({
  options: { log: { type: 'string' }, 'pid-file': { type: 'string' }, stubborn: { type: 'boolean' } },
});
if (values.stubborn) {
  process.on('SIGTERM', () => undefined);
  setInterval(() => undefined, 60_000);
}
const ran = (tool: string, event = 'run') => {
  if (values.log) appendFileSync(values.log, JSON.stringify({ tool, event }) + '\n');
};
if (values['pid-file']) writeFileSync(values['pid-file'], String(process.pid));

const text = (t: string) => ({ content: [{ type: 'text' as const, text: t }] });
const server = new McpServer({ name: 'assistant-safety-fixture', version: '1.0.0' });

server.registerTool(
  'find_service',
  {
    description: 'Finds a service by name (discovery).',
    inputSchema: { name: z.string() },
    annotations: { title: 'Find a service', readOnlyHint: true, openWorldHint: false },
  },
  async ({ name }) => {
    ran('find_service');
    return text(`found service ${name}`);
  },
);

server.registerTool(
  'get_status',
  {
    description: "Reads a service's status.",
    inputSchema: { name: z.string() },
    annotations: { readOnlyHint: true },
  },
  async ({ name }) => {
    ran('get_status');
    return text(JSON.stringify({ service: name, status: 'running' }));
  },
);

server.registerTool(
  'restart_service',
  {
    description: 'Restarts a service.',
    inputSchema: { name: z.string() },
    annotations: { title: 'Restart a service', readOnlyHint: false, destructiveHint: false, idempotentHint: true },
  },
  async ({ name }) => {
    ran('restart_service');
    return text(`restarted ${name}`);
  },
);

// Declares nothing: the gateway must treat it as a write unless a rule says otherwise.
server.registerTool(
  'lookup_host',
  { description: 'Looks a host up (a read that forgot its annotations).', inputSchema: { host: z.string() } },
  async ({ host }) => {
    ran('lookup_host');
    return text(`${host} is 10.0.0.7`);
  },
);

server.registerTool('explode', { description: 'Always throws.', annotations: { readOnlyHint: true } }, async () => {
  ran('explode');
  throw new Error('the fixture tool exploded');
});

/** Waits `ms`, reporting progress first; a cancellation ends the wait (and is logged). */
function slowTool(name: string, annotations: { readOnlyHint: boolean }) {
  server.registerTool(
    name,
    {
      description: 'Waits ms milliseconds (default 60 s), reporting progress when it starts; honours cancellation.',
      inputSchema: { ms: z.number().int().optional() },
      annotations,
    },
    async ({ ms = 60_000 }, extra) => {
      ran(name);
      const token = extra._meta?.progressToken;
      if (token !== undefined) {
        await extra.sendNotification({
          method: 'notifications/progress',
          params: { progressToken: token, progress: 1, total: 2 },
        });
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        extra.signal.addEventListener('abort', () => {
          clearTimeout(timer);
          ran(name, 'cancelled');
          resolve();
        });
      });
      return text(`${name} done`);
    },
  );
}
slowTool('slow_read', { readOnlyHint: true });
slowTool('slow_write', { readOnlyHint: false });

// Like most tool handlers: it never looks at the abort signal, so a cancelled call runs to its end.
server.registerTool(
  'stubborn_write',
  {
    description: 'Writes for ms milliseconds and ignores cancellation.',
    inputSchema: { ms: z.number().int() },
    annotations: { readOnlyHint: false },
  },
  async ({ ms }) => {
    ran('stubborn_write', 'start');
    await new Promise((resolve) => setTimeout(resolve, ms));
    ran('stubborn_write', 'end');
    return text('stubborn_write done');
  },
);

server.registerTool(
  'flood',
  {
    description: 'Sends count progress notifications of about bytes bytes each, then answers.',
    inputSchema: { count: z.number().int(), bytes: z.number().int() },
    annotations: { readOnlyHint: true },
  },
  async ({ count, bytes }, extra) => {
    const token = extra._meta?.progressToken ?? 'flood';
    const message = 'x'.repeat(bytes);
    for (let i = 0; i < count; i++)
      await extra.sendNotification({
        method: 'notifications/progress',
        params: { progressToken: token, progress: i, message },
      });
    ran('flood', 'sent');
    return text(`sent ${count}`);
  },
);

server.registerTool(
  'huge',
  {
    description: 'Answers with a text of bytes bytes.',
    inputSchema: { bytes: z.number().int() },
    annotations: { readOnlyHint: true },
  },
  async ({ bytes }) => {
    ran('huge');
    return text('y'.repeat(bytes));
  },
);

server.registerResource('notes', 'fixture://notes', { mimeType: 'text/plain' }, async (uri) => ({
  contents: [{ uri: uri.href, text: 'the fixture notes' }],
}));

server.registerPrompt('greet', { argsSchema: { who: z.string() } }, ({ who }) => ({
  messages: [{ role: 'user', content: { type: 'text', text: `Hello, ${who}` } }],
}));

await server.connect(new StdioServerTransport());
