import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  findProtoKey,
  MACHINE_NAME,
  MachineFileError,
  quoteName,
  readMachineFile,
  saveMachineFile,
} from '../node/machineFiles.js';
import { jsonSyntaxError } from '../node/jsonSyntaxError.js';
import { SaveMachineBody, type MachineApiError } from '../editor/MachineFileApi.js';
import { previewMachineSave } from '../node/previewMachineSave.js';

/*
 * The editor's machine endpoints (wire format in src/editor/MachineFileApi.ts).
 * The caller (startServer) has already checked the token, Host and Origin.
 * Writes go through saveMachineFile: only at the version the editor loaded,
 * only a well-formed machine, atomically (a temporary file, then a rename).
 */

/** The path prefix these routes answer. */
export const MACHINE_ROUTE = '/api/machines/';

/** A request body larger than this is refused (a machine is a few KB). */
export const MAX_BODY_BYTES = 1 << 20;

const STATUS: Record<MachineApiError['code'], number> = {
  BAD_REQUEST: 400,
  INVALID_NAME: 400,
  NOT_FOUND: 404,
  CONFLICT: 409,
  INVALID_MACHINE: 422,
  INVALID_LAYOUT: 422,
};

function reply(res: ServerResponse, status: number, value: unknown) {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify(value));
}

function refuse(res: ServerResponse, error: MachineApiError) {
  reply(res, STATUS[error.code], error);
}

class BadRequest extends Error {
  constructor(
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const type = req.headers['content-type'] ?? '';
  if (!/^application\/json\b/i.test(type)) throw new BadRequest('the body must be application/json');
  const tooLarge = () => new BadRequest(`the body is larger than ${MAX_BODY_BYTES} bytes`, 413);
  // Refused before reading when it says so up front; otherwise (chunked) as soon as it passes the limit.
  if (Number(req.headers['content-length'] ?? 0) > MAX_BODY_BYTES) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw tooLarge();
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    // Where it breaks ("the body is not JSON at line 1, column 7: …"), never the text itself.
    throw new BadRequest(`the body is ${jsonSyntaxError(text, e)}`);
  }
  // JSON.parse makes `__proto__` an own key that validation would skip: refused wherever it is.
  const proto = findProtoKey(value);
  if (proto) throw new BadRequest(`${proto.join('.')}: a "__proto__" key is not allowed`);
  return value;
}

function fromFileError(e: MachineFileError): MachineApiError {
  const issues = e.code === 'INVALID_MACHINE' && Array.isArray(e.details) ? e.details : undefined;
  return { error: e.message, code: e.code, ...(issues && { issues }) };
}

/**
 * Answers `GET /api/machines/:name`, `POST /api/machines/:name/preview` and
 * `PUT /api/machines/:name` for the machines of `machinesDir`.
 *
 * @example
 * if (url.pathname.startsWith(MACHINE_ROUTE)) return handleMachineRoute(req, res, url.pathname, machinesDir);
 */
export async function handleMachineRoute(
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  machinesDir: string,
): Promise<void> {
  let rest: string;
  try {
    rest = decodeURIComponent(pathname.slice(MACHINE_ROUTE.length));
  } catch {
    return refuse(res, { code: 'INVALID_NAME', error: 'bad machine name' });
  }
  const preview = rest.endsWith('/preview');
  const name = preview ? rest.slice(0, -'/preview'.length) : rest;
  const method = req.method ?? 'GET';
  const allowed = preview ? ['POST'] : ['GET', 'HEAD', 'PUT'];
  if (!allowed.includes(method)) {
    res.setHeader('allow', allowed.join(', '));
    return reply(res, 405, { error: `only ${allowed.join(', ')}`, code: 'BAD_REQUEST' });
  }
  // Before the body is read: a bad name is the answer whatever the body says.
  if (!MACHINE_NAME.test(name)) {
    return refuse(res, {
      code: 'INVALID_NAME',
      error: `invalid machine name ${quoteName(name)}: letters, digits, _ and - only, at most 100 characters`,
    });
  }
  try {
    if (method === 'GET' || method === 'HEAD') {
      const file = readMachineFile(machinesDir, name);
      return reply(res, 200, { ...file, json: file.json ?? null });
    }
    const body = SaveMachineBody.safeParse(await readJsonBody(req));
    if (!body.success) {
      const first = body.error.issues[0]!;
      return refuse(res, {
        code: 'BAD_REQUEST',
        error: `bad request body: ${first.path.join('.') || '(root)'}: ${first.message}`,
      });
    }
    const request = {
      name,
      definition: body.data.definition,
      baseVersion: body.data.baseVersion,
      ...(body.data.layout !== undefined && { layout: body.data.layout }),
      ...(body.data.baseLayoutVersion !== undefined && { baseLayoutVersion: body.data.baseLayoutVersion }),
    };
    if (preview) return reply(res, 200, await previewMachineSave(machinesDir, request));
    const saved = await saveMachineFile(machinesDir, request);
    return reply(res, 200, { version: saved.version, layoutVersion: saved.layoutVersion, text: saved.text });
  } catch (e) {
    if (e instanceof MachineFileError) return refuse(res, fromFileError(e));
    if (e instanceof BadRequest) {
      // The rest of an oversized body is not read: the connection closes after the answer.
      if (e.status === 413) res.setHeader('connection', 'close');
      return reply(res, e.status, { code: 'BAD_REQUEST', error: e.message });
    }
    throw e;
  }
}
