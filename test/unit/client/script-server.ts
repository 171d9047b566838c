/** A real local HTTP server answering from a script, for testing the transport over the wire. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as the server saw it. */
export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** One scripted answer: a status with JSON (or raw text) body, a dropped connection, or silence. */
export type Reply =
  | { status: number; headers?: Record<string, string>; json?: unknown; text?: string }
  | 'drop'
  | 'hang';

/** A running scripted server. */
export interface ScriptServer {
  /** The base URL (no /rest/v1). */
  url: string;
  seen: SeenRequest[];
  close(): Promise<void>;
}

/** Starts a server on port 0; `script` gives the reply to the n-th request (0-based). */
export async function scriptServer(
  script: Reply[] | ((n: number, req: SeenRequest) => Reply),
): Promise<ScriptServer> {
  const seen: SeenRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request: SeenRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      seen.push(request);
      const n = seen.length - 1;
      const reply =
        typeof script === 'function' ? script(n, request) : (script[n] ?? { status: 500, json: {} });
      answer(reply, req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function answer(reply: Reply, req: IncomingMessage, res: ServerResponse): void {
  if (reply === 'drop') {
    // The request arrived whole; the answer never comes.
    req.socket.destroy();
    return;
  }
  if (reply === 'hang') return;
  const body = reply.text ?? (reply.json === undefined ? '' : JSON.stringify(reply.json));
  const headers: Record<string, string> = { ...reply.headers };
  if (reply.json !== undefined && !headers['content-type']) headers['content-type'] = 'application/json';
  res.writeHead(reply.status, headers);
  res.end(body);
}

/** An error body as the service sends it. */
export function apiError(status: number, code: string, headers: Record<string, string> = {}): Reply {
  return { status, headers, json: { error: { type: 'api_error', code, message: `${code} happened` } } };
}
