/**
 * A capture server on loopback standing in for an HTTP proxy: it records what reaches it
 * (forwarded requests with their headers, CONNECT tunnels) and forwards nothing, answering
 * `status` to both. A "remote" host behind it is a name that cannot resolve (`store.invalid`).
 */
import type { IncomingHttpHeaders } from 'node:http';
import { loopbackServer } from './loopback-server.js';

/** What reached the proxy. */
interface Captured {
  method: string;
  /** The absolute URL of a forwarded request, or `host:port` of a CONNECT. */
  target: string;
  headers: IncomingHttpHeaders;
}

/** A running capture proxy. */
export interface CaptureProxy {
  /** `http://127.0.0.1:PORT`, for HTTP_PROXY or HTTPS_PROXY. */
  url: string;
  captured: Captured[];
  close(): Promise<void>;
}

/** Starts a capture proxy on 127.0.0.1 that answers every request and CONNECT with `status`. */
export async function captureProxy(status = 502): Promise<CaptureProxy> {
  const captured: Captured[] = [];
  const { server, url, close } = await loopbackServer((req, res) => {
    captured.push({ method: req.method ?? '', target: req.url ?? '', headers: req.headers });
    req.resume();
    res.writeHead(status, { 'content-type': 'text/html' });
    res.end('<html><body>Bad Gateway</body></html>');
  });
  server.on('connect', (req, socket) => {
    captured.push({ method: 'CONNECT', target: req.url ?? '', headers: req.headers });
    socket.end(`HTTP/1.1 ${status} Bad Gateway\r\nContent-Length: 0\r\n\r\n`);
  });
  return { url, captured, close };
}
