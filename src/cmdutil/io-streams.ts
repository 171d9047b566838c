/**
 * The streams of one run and what is decided about them once, from the global flags, the
 * environment and the terminals (gh's IOStreams): the output format, the printer and the
 * messages, whether svc may prompt or draw progress, how long a list is.
 */
import type { Readable, Writable } from 'node:stream';
import { Boundary } from '../output/boundary.js';
import type { GitHubActions } from '../output/github-actions.js';
import type { IO } from '../output/io.js';
import { Messages } from '../output/messages.js';
import { Printer } from '../output/printer.js';
import type { ProgressClock, ProgressSettings } from '../output/progress.js';
import type { Query } from '../output/query.js';
import type { TimeMode } from '../output/time.js';
import {
  machineFormatChosen,
  type OutputFormat,
  type OutputSettings,
  resolveFormat,
} from '../output/view.js';

/** The global options (docs/guide.md, Global options), after parsing. */
export interface GlobalOptions {
  profile?: string;
  baseUrl?: string;
  output?: OutputFormat;
  json?: boolean;
  all?: boolean;
  limit?: number;
  fields?: string[];
  /** --query EXPR, as typed (compiled before the command runs). */
  query?: string;
  /** False with --no-headers. */
  headers?: boolean;
  time?: TimeMode;
  maxRetries?: number;
  /** --request-timeout, in seconds. */
  requestTimeout?: number;
  yes?: boolean;
  /** False with --no-input. */
  input?: boolean;
  debug?: boolean;
  quiet?: boolean;
  /** --excel: csv for spreadsheets (a BOM, formula-shaped cells kept as text). */
  excel?: boolean;
  /** --decimal-comma on output: csv cells separated by `;`, decimals written with `,`. */
  decimalComma?: boolean;
}

/** Default number of items a list shows: one page. */
const DEFAULT_LIST_LIMIT = 25;

/** A run's streams, with the decisions about them read one way. */
export class IOStreams implements IO {
  readonly stdout: Writable;
  readonly stderr: Writable;
  readonly stdoutIsTTY: boolean;
  readonly stderrIsTTY: boolean;
  readonly stdinIsTTY: boolean;
  readonly color: boolean;
  readonly columns?: number;

  /**
   * The streams of `io` through a new boundary that masks the key in SVC_API_KEY (and any key
   * the run uses later) and the password of SVC_PACING_URL; `simulated` tells whether the run
   * wrote with a test key.
   */
  static create(
    io: IO,
    env: Readonly<NodeJS.ProcessEnv>,
    now: () => number,
    simulated: () => boolean,
    progressClock?: ProgressClock,
  ): IOStreams {
    const boundary = new Boundary(io);
    boundary.protect(env.SVC_API_KEY?.trim());
    boundary.protectUrlPassword(env.SVC_PACING_URL);
    boundary.protectUrlPassword(env.SVC_BASE_URL);
    return new IOStreams(boundary.io, env, now, boundary, simulated, progressClock);
  }

  private constructor(
    private readonly streams: IO,
    private readonly env: Readonly<NodeJS.ProcessEnv>,
    private readonly now: () => number,
    /** Every byte the run writes passes it: the key in use is masked, data escaped where it must be. */
    readonly boundary: Boundary,
    private readonly simulated: () => boolean,
    /** The clock progress lines read and tick on (a test's, so its 30 s need no waiting). */
    private readonly progressClock: ProgressClock | undefined,
    /** The global options of this run (frozen). */
    readonly globals: Readonly<GlobalOptions> = {},
    /** --query, compiled. */
    readonly query?: Query,
    /** Every field path of what the command prints, once --fields was checked against them. */
    readonly knownFields?: readonly string[],
  ) {
    this.stdout = streams.stdout;
    this.stderr = streams.stderr;
    this.stdoutIsTTY = streams.stdoutIsTTY;
    this.stderrIsTTY = streams.stderrIsTTY;
    this.stdinIsTTY = streams.stdinIsTTY;
    this.color = streams.color;
    this.columns = streams.columns;
  }

  /** Standard input, made when a command first reads it. */
  get stdin(): Readable {
    return this.streams.stdin;
  }

  /**
   * The same streams under other global options (once commander parsed them), a compiled query,
   * or the field paths --fields was checked against.
   */
  with(globals: Readonly<GlobalOptions>, query?: Query, knownFields?: readonly string[]): IOStreams {
    return new IOStreams(
      this,
      this.env,
      this.now,
      this.boundary,
      this.simulated,
      this.progressClock,
      Object.freeze({ ...globals }),
      query,
      knownFields,
    );
  }

  /** The output format in force: --json, then -o, then table on a terminal and tsv when piped. */
  get format(): OutputFormat {
    return resolveFormat(this.globals, this.stdoutIsTTY);
  }

  /** JSON is asked for (--json or -o json): summaries and errors go out as JSON too. */
  get wantsJson(): boolean {
    return this.format === 'json';
  }

  /**
   * A format for machines was chosen (--json, or -o other than table): an error goes out as one
   * JSON line on stderr too (docs/guide.md, Errors for scripts).
   */
  get machineFormatChosen(): boolean {
    return machineFormatChosen(this.globals);
  }

  /** A format for machines is asked for (json or ndjson): lines of text go out as JSON. */
  get wantsMachineText(): boolean {
    return this.format === 'json' || this.format === 'ndjson';
  }

  /** Notes, warnings and errors on stderr. */
  get messages(): Messages {
    return new Messages(this, { quiet: Boolean(this.globals.quiet), color: this.color });
  }

  /** Results on stdout, in the format in force. */
  get printer(): Printer {
    return this.printerWith({});
  }

  /**
   * The printer of a command whose output has a format of its own (csv for an export, json for
   * raw API answers), used unless --json or -o chose another.
   */
  printerDefaulting(format: OutputFormat): Printer {
    const chosen = this.globals.json || this.globals.output !== undefined || this.globals.excel;
    return this.printerWith(chosen ? {} : { format });
  }

  private printerWith(overrides: Partial<OutputSettings>): Printer {
    return new Printer(this, {
      format: this.format,
      fields: this.globals.fields,
      quiet: Boolean(this.globals.quiet),
      color: this.color,
      now: this.now(),
      query: this.query,
      headers: this.globals.headers,
      time: this.globals.time,
      width: this.columns,
      pretty: this.stdoutIsTTY,
      redact: (text) => this.boundary.redact(text),
      simulated: this.simulated,
      excel: this.globals.excel,
      decimalComma: this.globals.decimalComma,
      knownFields: this.knownFields,
      recordLines: !this.stdoutIsTTY && !this.machineFormatChosen,
      ...overrides,
    });
  }

  /** How many items a list command asks for: --all, --limit N, else one page. */
  get listLimit(): number | 'all' {
    if (this.globals.all) return 'all';
    return this.globals.limit ?? DEFAULT_LIST_LIMIT;
  }

  /** Prompts are allowed: stdin and stderr are terminals, no --no-input, not CI. */
  get canPrompt(): boolean {
    return this.stdinIsTTY && this.stderrIsTTY && this.globals.input !== false && !this.inCI;
  }

  /**
   * How long work shows progress: not with -q; a live line on a terminal outside CI, else a
   * line every 30 s (output/progress.ts).
   */
  get progress(): ProgressSettings {
    return { enabled: !this.globals.quiet, live: !this.inCI, clock: this.progressClock };
  }

  /** GitHub Actions, when the run is on it: where annotations and the step summary go. */
  get gitHubActions(): GitHubActions | undefined {
    if (this.env.GITHUB_ACTIONS !== 'true') return undefined;
    return { stepSummary: this.env.GITHUB_STEP_SUMMARY || undefined };
  }

  /** Running in CI, as CI services say it: CI=true or CI=1. */
  get inCI(): boolean {
    return this.env.CI === 'true' || this.env.CI === '1';
  }
}
