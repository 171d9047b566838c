/**
 * The help topics (`svc help environment`, `svc help exit-codes`, `svc help formats`): one
 * source for the terminal and the man page, whose ENVIRONMENT, EXIT STATUS and FORMATS
 * sections are made from them (core/docs/man.ts).
 */
import type { TreeTopic } from '../core/command-tree.js';
import { EXIT_MEANINGS } from './exit.js';

/** Every variable svc reads, with its meaning and default (a test compares it with the code). */
const ENVIRONMENT: readonly (readonly [string, string])[] = [
  ['SVC_API_KEY', "key to use; overrides the profile's (surrounding whitespace trimmed)"],
  ['SVC_PROFILE', 'profile to use (default: the current profile, else "default")'],
  ['SVC_BASE_URL', "service address, the part before /rest/v1; overrides the profile's"],
  ['SVC_CONFIG_DIR', "where profiles and resume state live (default: the platform's config dir)"],
  ['SVC_WEBHOOK_SECRET', 'signing secret for webhooks verify, events replay and events listen'],
  ['SVC_MAX_RETRIES', 'as --max-retries (default 5)'],
  ['SVC_REQUEST_TIMEOUT', 'as --request-timeout, in seconds (default 30)'],
  ['SVC_SHARED_PACING', '0 turns off pacing shared with other svc processes on the same key (default on)'],
  [
    'SVC_PACING_URL',
    'redis://[user:pass@]host:port[/db] or rediss://…: share pacing and the quota count with svc on other machines (default: this machine only)',
  ],
  ['SVC_CA_FILE', "a PEM file of CA certificates to trust for the service (also a profile's ca_file)"],
  ['SVC_MAX_INPUT_BYTES', 'the largest input file or standard input svc reads (default 2 GB)'],
  ['XDG_STATE_HOME', 'where the write-quota count lives on Linux and macOS (default ~/.local/state/svc)'],
  ['LOCALAPPDATA', 'where the write-quota count lives on Windows (%LOCALAPPDATA%\\svc)'],
  ['XDG_CONFIG_HOME', 'the config dir on Linux when SVC_CONFIG_DIR is unset (default ~/.config)'],
  ['APPDATA', 'the config dir on Windows when SVC_CONFIG_DIR is unset'],
  ['CI', 'true (or 1): never prompt, progress a line every 30 s, and a refused key points at the job secret'],
  [
    'GITHUB_ACTIONS',
    'true: failing input lines become ::error file=…,line=…:: annotations (at most 10 a run)',
  ],
  ['GITHUB_STEP_SUMMARY', "on GitHub Actions: the file a bulk run's summary table is appended to"],
  ['BROWSER', 'the browser --web opens a URL with (default: the system opener; in CI the URL is printed)'],
  ['DISPLAY, WAYLAND_DISPLAY', 'neither set (Linux): no browser to start, --web prints the URL'],
  [
    'TMPDIR, TMP, TEMP',
    'where standard input and pipes are spooled while a run reads them (removed at its end)',
  ],
  ['NO_COLOR', 'set: no colour'],
  ['TERM', 'dumb: no colour'],
  ['COLUMNS', 'the width tables fit (default: the terminal width)'],
  ['HTTPS_PROXY, HTTP_PROXY', 'proxy for https:// and http:// service addresses (lower case too)'],
  ['NO_PROXY', 'hosts reached without the proxy (lower case too)'],
  ['ALL_PROXY', 'not used: svc says so (doctor), set HTTPS_PROXY instead'],
  ['NODE_EXTRA_CA_CERTS', 'more CA certificates to trust, as for any Node program'],
  ['NODE_TLS_REJECT_UNAUTHORIZED', '0 turns certificate checks off; doctor warns'],
  ['DBUS_SESSION_BUS_ADDRESS', 'the session bus the Linux keyring is reached on'],
];

const PRECEDENCE = [
  'Precedence: flag, then environment, then profile; an explicit --profile wins over',
  'SVC_API_KEY and SVC_BASE_URL. A key is never taken from a flag.',
];

const FORMATS = [
  'Output (-o, --output; --json is -o json):',
  '  table   for people, on a terminal (the default there)',
  '  tsv     without a terminal (the default there): a list is a header row, then a row per',
  '          item; one record (auth status, orders get, quota, doctor, a dry-run plan) is a',
  '          field<TAB>value line per field, nested fields as dot paths, lists comma-joined',
  '  json    a list is one JSON array of its items; one record, one object',
  '  ndjson  one JSON object per line',
  '  csv     RFC 4180, a header row; --excel adds a UTF-8 BOM and keeps formulas as text',
  'Results go to stdout; progress, verdicts ("Nothing was sent", totals), warnings and errors',
  'to stderr, in every format (-q keeps only errors). With a machine format an error is also',
  'the last stderr line, as {"error": {"code", "message", "exit_code", ...}}.',
  '',
  'CSV input (inventory push and diff, orders fulfill --file, products upsert):',
  '  A header row; names match ignoring case and surrounding blanks; --map field=Column',
  '  renames, --ignore Column leaves one unread. The delimiter (, ; or tab) is read from the',
  '  header line; a UTF-8 BOM is ignored; Windows-1252 is read with a notice (--encoding).',
  "  Line numbers are the file's physical lines, the header being line 1. Rows whose cells",
  '  are all empty are skipped. The whole file is checked before anything is sent: a bad line',
  '  stops the run with exit 2, naming every bad line (--report OUT.csv lists them all).',
  '  Inventory: sku, quantity (an integer, 0 or more) and/or price; an empty cell leaves that',
  '  value unchanged. "." is a decimal point; in a ";" file or with --decimal-comma a single',
  '  "," is one too. Shipments: order_id, tracking_number, carrier[, tracking_url].',
  '  Standard input (-) and pipes are spooled to a temporary file first.',
];

/** The topics, in the order `svc help` lists them. */
export const HELP_TOPICS: readonly TreeTopic[] = [
  {
    name: 'environment',
    section: 'ENVIRONMENT',
    summary: 'every variable svc reads, with its meaning and default',
    rows: ENVIRONMENT,
    text: PRECEDENCE,
  },
  {
    name: 'exit-codes',
    section: 'EXIT STATUS',
    summary: 'what each exit code means',
    rows: EXIT_MEANINGS,
    text: [
      'Local checks that fail before anything is sent exit 2; anything the service refuses',
      'exits 1 (4 for 401 and 403); per-item failures of a bulk command exit 3.',
    ],
  },
  {
    name: 'formats',
    section: 'FORMATS',
    summary: 'output formats, and the rules of CSV input files',
    text: FORMATS,
  },
];

/** Which global options apply to which kind of command (the man page's GLOBAL OPTIONS says it). */
export const GLOBAL_OPTION_SCOPES: readonly string[] = [
  'Each applies to the kind of command it means something to; given to another, it is refused',
  "(exit 2), and each command's help lists the ones it takes:",
  '  lists                                 --all, -L/--limit',
  "  commands that print the service's data  --fields",
  '  commands that ask first               -y/--yes',
  '  commands that print results           -o/--output, --json',
  '  commands that print data              --query, --no-headers, --time, --excel',
  '  commands that reach the service       --profile, --base-url, --max-retries, --request-timeout',
  '  every command                         --no-input, --debug, -q/--quiet',
];

/** The topic `word` names, if it names one. */
export function helpTopic(word: string | undefined): TreeTopic | undefined {
  return HELP_TOPICS.find((topic) => topic.name === word);
}

/** A topic as `svc help TOPIC` prints it. */
export function topicText(topic: TreeTopic): string {
  const rows = topic.rows ?? [];
  const width = Math.min(30, Math.max(0, ...rows.map(([name]) => name.length)) + 2);
  const table = rows.map(([name, meaning]) =>
    name.length + 2 > width
      ? `  ${name}\n  ${' '.repeat(width)}${meaning}`
      : `  ${name.padEnd(width)}${meaning}`,
  );
  const parts = [`${topic.summary.charAt(0).toUpperCase()}${topic.summary.slice(1)}:`, '', ...table];
  if (topic.text?.length) parts.push(...(rows.length > 0 ? [''] : []), ...topic.text);
  return `${parts.join('\n')}\n`;
}
