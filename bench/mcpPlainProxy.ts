import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

/*
 * The bench's baseline for the gateway: a plain pass-through MCP proxy built
 * with the same SDK transports, no gate. Every message goes across unchanged.
 *
 *   node --import tsx bench/mcpPlainProxy.ts -- COMMAND [ARGS...]
 */
const at = process.argv.indexOf('--');
const [command, ...args] = process.argv.slice(at + 1);
const upstream = new StdioServerTransport();
const downstream = new StdioClientTransport({ command: command!, args, stderr: 'inherit' });
upstream.onmessage = (m) => void downstream.send(m);
downstream.onmessage = (m) => void upstream.send(m);
downstream.onclose = () => process.exit(1);
process.stdin.on('end', () => void downstream.close().then(() => process.exit(0)));
await downstream.start();
await upstream.start();
