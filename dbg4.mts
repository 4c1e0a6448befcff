import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createMcpGateway } from './src/mcp/index.ts';
import { createSafetySession } from './src/index.ts';
// Drive the gateway alone: fake client and fake server as raw transports, no SDK Protocol around them.
const [serverSide, downstream] = InMemoryTransport.createLinkedPair();
const [upstream, clientSide] = InMemoryTransport.createLinkedPair();
const tools = [['find_service', true], ['restart_service', false], ['get_status', true]].map(([name, ro]) => ({ name, inputSchema: { type: 'object' }, annotations: { readOnlyHint: ro } }));
serverSide.onmessage = (m: any) => {
  if (m.method === 'tools/list') void serverSide.send({ jsonrpc: '2.0', id: m.id, result: { tools } });
  else if (m.method === 'initialize') void serverSide.send({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 's', version: '1' } } });
  else if (m.method === 'tools/call') void serverSide.send({ jsonrpc: '2.0', id: m.id, result: { content: [{ type: 'text', text: 'x' }] } });
};
await serverSide.start();
const waiting = new Map<number, () => void>();
clientSide.onmessage = (m: any) => { if ('id' in m) { const w = waiting.get(m.id); waiting.delete(m.id); w?.(); } };
await clientSide.start();
const gateway = process.argv[2] === 'proxy' ? null : createMcpGateway({ upstream, downstream, session: createSafetySession() });
if (gateway) await gateway.start(); else { upstream.onmessage = (m) => void downstream.send(m); downstream.onmessage = (m) => void upstream.send(m); await upstream.start(); await downstream.start(); }
let id = 0;
const req = (method: string, params?: any) => new Promise<void>((r) => { const i = ++id; waiting.set(i, r); void clientSide.send({ jsonrpc: '2.0', id: i, method, params }); });
await req('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } });
await clientSide.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
const names = ['find_service', 'restart_service', 'get_status'];
for (let r = 0; r < 4; r++) {
  const n = 20000; const t = performance.now();
  for (let i = 0; i < n; i++) await req('tools/call', { name: names[i % 3], arguments: { name: 'w' } });
  console.log(process.argv[2] ?? 'gateway', ((performance.now() - t) / n * 1000).toFixed(2), 'µs/call', gateway?.session.state);
}
process.exit(0);
