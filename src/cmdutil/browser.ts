/**
 * `--web`: opens what a command is looking at (an order on its marketplace, a listing on its
 * channel) in a browser, as `gh … --view --web` does. $BROWSER wins where set; otherwise the
 * system's opener (the `open` package, loaded only here). In CI, or where no browser can be
 * started (no display, no opener), the URL is printed on stdout instead, and the run still
 * succeeds. A URL the service did not give is a failure naming why.
 */
import { spawn } from 'node:child_process';
import { CommandFailed } from '../errors.js';
import type { Deps } from './deps.js';

/** What `--web` opens: the URL (when the service gave one), and what it is, for messages. */
export interface WebTarget {
  url: string | null | undefined;
  /** "order ord_123 on its marketplace". */
  what: string;
  /** The field the URL comes from (`order_url`), named when it is empty. */
  field: string;
}

/** Opens `target` in a browser, or prints its URL where none can be opened. */
export async function openWeb(deps: Pick<Deps, 'io' | 'env'>, target: WebTarget): Promise<void> {
  const url = target.url?.trim();
  if (!url)
    throw new CommandFailed(
      `${target.what} has no URL yet (the service sent no ${target.field}); run again without --web to see it`,
    );
  // Data from the service: only a web address is handed to a browser.
  if (!/^https?:\/\/[^\s]+$/i.test(url))
    throw new CommandFailed(`${target.what} has a ${target.field} that is not a web address: ${url}`);
  const browser = deps.env.BROWSER?.trim();
  if (deps.io.inCI || (!browser && !hasDisplay(deps.env))) return deps.io.printer.text(url);
  try {
    if (browser) await runBrowser(browser, url);
    else await (await import('open')).default(url);
  } catch (error) {
    deps.io.messages.warn(`could not open a browser (${(error as Error).message}); open the URL yourself`);
    return deps.io.printer.text(url);
  }
  deps.io.messages.info(`Opening ${url} in your browser.`);
}

/** A desktop a browser can open on: macOS and Windows always; elsewhere an X or Wayland display. */
function hasDisplay(env: Readonly<NodeJS.ProcessEnv>): boolean {
  if (process.platform === 'darwin' || process.platform === 'win32') return true;
  return Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);
}

/**
 * Runs $BROWSER with the URL as its last argument (its words split at blanks: `firefox
 * --new-tab`), no shell between, so nothing in the URL is run. Resolves once it started.
 */
function runBrowser(browser: string, url: string): Promise<void> {
  const [command = '', ...args] = browser.split(/\s+/);
  return new Promise((resolve, reject) => {
    const child = spawn(command, [...args, url], { stdio: 'ignore', detached: true });
    child.once('error', reject);
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });
}
