/**
 * A service stand-in on loopback that keeps every request's bytes as they came off the wire
 * (method, path and query, headers, body) and answers each with `{}`: what a command sent,
 * not what a parser made of it.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { loopbackServer } from './loopback-server.js';

/** One request as it arrived. */
interface CapturedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A running capture server. */
export interface CaptureServer {
  /** Base URL (the part before /rest/v1). */
  url: string;
  requests: CapturedRequest[];
  close(): Promise<void>;
}

/** Starts a capture server on 127.0.0.1 answering 200 `{}` to everything. */
export async function captureServer(): Promise<CaptureServer> {
  const requests: CapturedRequest[] = [];
  const { url, close } = await loopbackServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      requests.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks),
      });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  return { url, requests, close };
}
