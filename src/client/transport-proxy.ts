/**
 * The dispatcher of a route: through the proxy HTTP_PROXY, HTTPS_PROXY and NO_PROXY name for it
 * (proxy-route.ts decides), else direct. The transport and the raw poster both get theirs here.
 */
import { createSecureContext, rootCertificates, type SecureContext } from 'node:tls';
import { Agent, type Dispatcher, ProxyAgent } from 'undici';
import { UsageError } from '../errors.js';
import type { Route } from './proxy-route.js';

/**
 * An agent for one route: through the proxy it names, else direct. Loopback is always direct
 * (a key to this machine never passes a proxy); other hosts follow HTTP_PROXY, HTTPS_PROXY
 * and NO_PROXY.
 */
export function dispatcherFor(route: Route, connectTimeoutMs: number, caPem?: string): Dispatcher {
  const options = {
    connect: { timeout: connectTimeoutMs, ...(caPem ? { secureContext: trusting(caPem) } : {}) },
    // Below common server idle timeouts, so a reused socket is rarely closed under a write.
    keepAliveTimeout: 4_000,
  };
  if (route.via === 'direct') return new Agent(options);
  try {
    return new ProxyAgent({ ...options, uri: route.proxy.uri });
  } catch (error) {
    // The value is not repeated: it may hold a password.
    const { variable } = route.proxy;
    throw new UsageError(
      `${variable} is not a usable proxy address (${(error as Error).message}); fix it, e.g. ${variable}=http://proxy.example.com:3128 (a user and password percent-encoded), or unset it`,
    );
  }
}

/** The TLS context of each CA file, made once: its 140-odd roots took 26 ms to parse, for every connection. */
const contexts = new Map<string, SecureContext>();

/** A context trusting `caPem` beside the system's roots (it adds NODE_EXTRA_CA_CERTS): added to them, never replacing them. */
function trusting(caPem: string): SecureContext {
  let context = contexts.get(caPem);
  if (!context) {
    context = createSecureContext({ ca: [...rootCertificates, caPem] });
    contexts.set(caPem, context);
  }
  return context;
}
