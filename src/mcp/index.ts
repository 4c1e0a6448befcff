/*
 * assistant-safety/mcp: the safety machine in front of any MCP server.
 * `createMcpGateway` bridges two MCP transports (towards the client, towards
 * the server) and gates every tools/call through one safety session;
 * `assistant-safety mcp-gateway -- COMMAND` is this over stdio
 * (docs/mcp-gateway.md). Needs the optional peer `@modelcontextprotocol/sdk`.
 */
export { createMcpGateway } from './createMcpGateway.js';
export {
  JSONRPC_PARSE_ERROR,
  JSONRPC_INVALID_REQUEST,
  JSONRPC_INVALID_PARAMS,
  JSONRPC_INTERNAL_ERROR,
  JSONRPC_CONNECTION_CLOSED,
} from './jsonRpc.js';
export type { McpGateway, McpGatewayOptions, McpGatewayExit } from './McpGatewayOptions.js';
export type { ToolDefinitionChange } from './toolCatalogue.js';
export type { OrphanedCall, SharedGatewaySession } from './SharedGatewaySession.js';
export { createStdioServerTransport } from './stdioServerTransport.js';
export type { StdioServerTransportOptions } from './stdioServerTransport.js';
export { spawnMcpServer, JSONRPC_RESULT_TOO_LARGE } from './spawnMcpServer.js';
export type { SpawnMcpServerOptions, McpServerProcess } from './spawnMcpServer.js';
export { ANNOTATION_TRUST } from './annotationTrust.js';
export type { AnnotationTrust } from './annotationTrust.js';
export { listServerTools } from './listServerTools.js';
export { listenHttp } from './listenHttp.js';
export type { HttpGateway, HttpGatewayOptions, HttpGatewayTimeouts } from './listenHttp.js';
