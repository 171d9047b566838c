/** The HTTP side of the emulator: node:http (or node:https) in, the core's outcome out. Prints nothing. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { ERROR_CODES, ERROR_TYPES } from '../../contract/contract.js';
import type { EmulatorCore } from './pipeline.js';

// Bigger than a 10 MB image in base64 plus its JSON wrapper; anything larger is refused unread.
const MAX_BODY_BYTES = 16 * 1024 * 1024;

/** A listening server and how to stop it. */
export interface ListeningServer {
  server: Server;
  port: number;
  close(): Promise<void>;
}

/** A certificate and its key, PEM, to serve HTTPS with. */
export interface TlsIdentity {
  cert: string;
  key: string;
}

/** Listen on `host:port` (0 for an ephemeral port), over TLS with `tls`, and hand each request to the core. */
export async function listen(
  core: EmulatorCore,
  host: string,
  port: number,
  tls?: TlsIdentity,
): Promise<ListeningServer> {
  const handle = (request: IncomingMessage, response: ServerResponse) => {
    void serve(core, request, response);
  };
  const server: Server = tls
    ? createTlsServer({ keepAliveTimeout: 5_000, cert: tls.cert, key: tls.key }, handle)
    : createServer({ keepAliveTimeout: 5_000 }, handle);
  server.on('clientError', refuseUnreadable);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  return {
    server,
    port: address.port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function serve(core: EmulatorCore, request: IncomingMessage, response: ServerResponse): Promise<void> {
  try {
    const body = await readBody(request);
    if (body === undefined) {
      answerError(
        response,
        413,
        ERROR_TYPES.invalidRequest,
        ERROR_CODES.fileTooLarge,
        'The body is too large.',
      );
      return;
    }
    const outcome = await core
      .handle({ method: request.method ?? 'GET', url: request.url ?? '/', headers: request.headers, body })
      .catch((error: unknown) => {
        // A fault of the emulator itself is still answered in the envelope, never by a dropped connection.
        answerError(
          response,
          500,
          ERROR_TYPES.api,
          ERROR_CODES.internalError,
          `The emulator failed: ${String(error)}`,
        );
        return undefined;
      });
    if (outcome === undefined) return;
    if (outcome.kind === 'drop') {
      request.socket.destroy();
      return;
    }
    response.writeHead(outcome.status, outcome.headers);
    response.end(outcome.body);
  } catch {
    // The socket is gone or the answer could not be written; nothing useful remains to do.
    request.socket.destroy();
  }
}

/**
 * A request the HTTP parser cannot read (not HTTP, a malformed header, a request line or headers
 * past its limit) is answered in the envelope too: 431 when the headers are too large, else 400.
 */
function refuseUnreadable(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  const text = JSON.stringify({
    error: {
      type: ERROR_TYPES.invalidRequest,
      code: ERROR_CODES.parameterInvalid,
      message: tooLarge
        ? 'The request line or headers are too large; send long filters in fewer, shorter parameters.'
        : 'The request is not readable as HTTP/1.1.',
    },
  });
  const status = tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request';
  socket.end(
    `HTTP/1.1 ${status}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`,
  );
}

/** An error answer in the contract's envelope, for what fails before or outside the pipeline. */
function answerError(
  response: ServerResponse,
  status: number,
  type: string,
  code: string,
  message: string,
): void {
  const text = JSON.stringify({ error: { type, code, message } });
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    connection: 'close',
  });
  response.end(text);
}

function readBody(request: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) tooLarge = true;
      else chunks.push(chunk);
    });
    request.on('end', () => resolve(tooLarge ? undefined : Buffer.concat(chunks)));
    request.on('error', reject);
  });
}
