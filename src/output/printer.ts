/** The only place results reach stdout: lists stream, single items print whole. */
import { CrawlInterrupted } from '../errors.js';
import { csvField, csvRow, decimalCommaCell, tsvField } from './delimited.js';
import { escapeLine, jsonText, Styled, terminalText } from './escape.js';
import { cellText, flatColumns, getPath, leafPaths, pickPaths } from './fields.js';
import type { Wrap } from './fit.js';
import { type IO, writeText } from './io.js';
import { indentAfterFirst, prettyJson } from './json-text.js';
import { spreadsheetCell } from './spreadsheet.js';
import { simulatedNote } from './summary.js';
import { formatTime } from './time.js';
import { type Column, isShrinkableField, type OutputSettings, type View } from './view.js';

/** How `item` shows one resource. */
export interface ItemOptions<T> {
  view?: View<T>;
  /**
   * The text shown on a terminal instead of the generic vertical table: a plain string is
   * escaped whole; Styled text (escape.ts) keeps svc's own colours and escapes its data.
   */
  summary?: (item: T, now: number) => string | Styled;
}

/** The column a table of a test key's results gains. */
const SIMULATED_COLUMN: Column<unknown> = { header: 'SIMULATED', cell: () => 'yes' };

/** The byte order mark that tells a spreadsheet the csv is UTF-8 (`Müller`, not `MÃ¼ller`). */
const UTF8_BOM = '\uFEFF';

/** Writes results in the chosen format. */
export class Printer {
  /** --excel's BOM is still to be written, before the first csv text. */
  private bomDue: boolean;

  constructor(
    private readonly io: IO,
    private readonly settings: OutputSettings,
  ) {
    this.bomDue = settings.excel === true && settings.format === 'csv';
  }

  /**
   * Streams a list: ndjson, csv and tsv row by row as pages arrive; json as one array that
   * is closed even when the crawl fails midway (then CrawlInterrupted says how far it got).
   * A crawl that fails before its first item prints nothing: an empty array would read as
   * "none". With --query the whole list is gathered first, and the query's result printed.
   * Returns how many items were written (read, with --query).
   */
  async list<T>(items: AsyncIterable<T>, view: View<T>): Promise<number> {
    const { format, query } = this.settings;
    if (query) {
      const gathered = await gather(items, (item) => this.shape(item));
      await this.value(query.apply(gathered));
      return gathered.length;
    }
    if (format === 'table') return this.tableList(items, view);
    const out = this.io.stdout;
    let count = 0;
    let header: string[] | undefined;
    try {
      for await (const item of items) {
        if (format === 'json') {
          await writeText(out, `${count === 0 ? '[\n' : ',\n'}${this.jsonInList(this.shape(item))}`);
        } else if (format === 'ndjson') {
          await writeText(out, `${jsonText(this.shape(item))}\n`);
        } else {
          const rows = this.rowsOf(item, view);
          header ??= this.columnsFor(this.fieldsFor(view, rows[0]), rows[0]);
          if (count === 0) await this.writeHeader(header);
          for (const row of rows) await writeText(out, this.delimited(this.rowCells(header, row)));
        }
        count++;
      }
    } catch (error) {
      if (format === 'json' && count > 0) await writeText(out, '\n]\n');
      throw new CrawlInterrupted(count, error);
    }
    if (format === 'json') await writeText(out, count === 0 ? '[]\n' : '\n]\n');
    else if ((format === 'csv' || format === 'tsv') && count === 0) {
      await this.writeHeader(this.columnsFor(this.fieldsFor(view, undefined), undefined));
    }
    return count;
  }

  /**
   * Prints one resource: on a terminal its `summary` or a vertical table, else as the
   * format says; with --query, the query's result.
   */
  async item<T>(item: T, options: ItemOptions<T> = {}): Promise<void> {
    const { format } = this.settings;
    const out = this.io.stdout;
    const shaped = this.shape(item);
    if (this.settings.query) return this.value(this.settings.query.apply(shaped));
    if (format === 'json') return this.json(shaped, 2);
    if (format === 'ndjson') return this.json(shaped);
    const record = this.mark(this.pick(this.forText(item, options.view))) as Record<string, unknown>;
    if (format === 'table') {
      if (options.summary && !this.settings.fields)
        return writeText(out, `${terminalText(this.noted(options.summary(item, this.settings.now)))}\n`);
      const { color, now, time, width } = this.settings;
      // Tables and detail views load cli-table3 and the fitting only when drawn.
      const { renderDetail } = await import('./detail.js');
      return writeText(out, await renderDetail(record, { color, now, time, width, redact: this.redact }));
    }
    if (format === 'tsv' && this.settings.recordLines) return this.recordLines(record);
    const fields = this.settings.fields
      ? this.columnsFor(this.withSimulated(this.settings.fields), record)
      : leafPaths(record);
    await this.writeHeader(fields);
    await writeText(out, this.delimited(this.rowCells(fields, record)));
  }

  /** One record for a pipe: a `field<TAB>value` line per field, in the record's order. */
  private async recordLines(record: Record<string, unknown>): Promise<void> {
    const { recordPairs } = await import('./record-lines.js');
    const fields = this.settings.fields && this.withSimulated(this.settings.fields);
    for (const [field, value] of recordPairs(record, fields))
      await writeText(
        this.io.stdout,
        `${this.onStdout(tsvField(field))}\t${this.onStdout(tsvField(value))}\n`,
      );
  }

  /**
   * Writes one value as JSON to stdout: indented by `indent` (and then coloured on a terminal
   * unless NO_COLOR), else on one line.
   */
  json(value: unknown, indent?: number): Promise<void> | void {
    const text = indent ? this.prettyJson(value) : jsonText(value);
    return writeText(this.io.stdout, `${text}\n`);
  }

  /**
   * Writes text for people to stdout (a secret shown once, a URL): a plain string with control
   * characters escaped, Styled text as composed.
   */
  text(line: string | Styled): Promise<void> | void {
    return writeText(this.io.stdout, `${terminalText(line)}\n`);
  }

  /** Writes machine text to stdout exactly as given (a shell completion script). */
  raw(text: string): Promise<void> | void {
    return writeText(this.io.stdout, `${text}\n`);
  }

  /**
   * Prints any value (a --query result, an answer of `svc api`): JSON; or in the chosen
   * format when it is a scalar, a list of scalars or a list of flat objects.
   */
  async value(value: unknown): Promise<void> {
    const { format } = this.settings;
    const out = this.io.stdout;
    if (format === 'ndjson') {
      const lines = Array.isArray(value) ? value : [value];
      for (const line of lines) await writeText(out, `${jsonText(line ?? null)}\n`);
      return;
    }
    const { resultShape } = await import('./query-output.js');
    const shape = resultShape(value, format);
    switch (shape.kind) {
      case 'json':
        return writeText(out, `${this.prettyJson(shape.value ?? null)}\n`);
      case 'scalar':
        return writeText(out, `${this.scalarText(shape.value)}\n`);
      case 'scalars':
        for (const scalar of shape.values) await writeText(out, `${this.scalarText(scalar)}\n`);
        return;
      case 'records': {
        const rows = shape.records.map((record) => shape.columns.map((c) => cellText(record[c])));
        if (format === 'table') return writeText(out, await this.table(shape.columns, rows));
        await this.writeHeader(shape.columns);
        for (const row of rows) await writeText(out, this.delimited(row));
      }
    }
  }

  private scalarText(value: string | number | boolean | null): string {
    const text = cellText(value ?? 'null');
    if (this.settings.format === 'csv') return this.withBom(csvField(this.onStdout(this.excelCell(text))));
    if (this.settings.format === 'tsv') return this.onStdout(tsvField(text));
    return this.onStdout(text);
  }

  /** Data of a machine format: escaped on a terminal, exact for a pipe or a file. */
  private onStdout(text: string): string {
    return this.io.stdoutIsTTY ? escapeLine(text) : text;
  }

  /** Table and detail cells are masked before they are fitted: a cut key would escape the stream's mask. */
  private get redact(): (text: string) => string {
    return this.settings.redact ?? ((text) => text);
  }

  private async tableList<T>(items: AsyncIterable<T>, view: View<T>): Promise<number> {
    const collected: T[] = [];
    try {
      for await (const item of items) collected.push(item);
    } catch (error) {
      if (collected.length > 0) await this.writeTable(collected, view);
      throw new CrawlInterrupted(collected.length, error);
    }
    if (collected.length > 0) await this.writeTable(collected, view);
    return collected.length;
  }

  private async writeTable<T>(items: T[], view: View<T>): Promise<void> {
    const byFields =
      this.settings.fields !== undefined || view.columns.length === 0 || this.splitsLines(view);
    let rendered: string;
    if (byFields) {
      const rows = items.flatMap((item) => this.rowsOf(item, view));
      const fields = this.fieldsFor(view, rows[0]);
      rendered = await this.table(
        fields,
        rows.map((row) => fields.map((f) => cellText(getPath(row, f)))),
        fields.map(isShrinkableField),
      );
    } else {
      const columns = this.simulated ? [...view.columns, SIMULATED_COLUMN] : view.columns;
      const cells = items.map((item) => columns.map((c) => this.cell(c, this.forText(item, view))));
      const shown = columns
        .map((column, index) => ({ column, index }))
        .filter(({ column, index }) => !column.hideEmpty || cells.some((row) => row[index] !== ''));
      rendered = await this.table(
        shown.map(({ column }) => column.header),
        cells.map((row) => shown.map(({ index }) => row[index])),
        shown.map(({ column }) => column.shrink === true),
        shown.map(({ column }) => column.drop),
        shown.map(({ column }) => column.wrap),
      );
    }
    await writeText(this.io.stdout, rendered);
  }

  private cell<T>(column: Column<T>, item: T): string {
    const { now, time } = this.settings;
    if (column.time) return formatTime(column.time(item), time ?? 'relative', now);
    return column.cell?.(item, now) ?? '';
  }

  private async table(
    headers: string[],
    rows: string[][],
    shrinkable?: boolean[],
    dropOrder?: (number | undefined)[],
    wrap?: (Wrap | undefined)[],
  ): Promise<string> {
    const { color, width, headers: withHeaders } = this.settings;
    const { renderTable } = await import('./table.js');
    const redact = this.redact;
    return renderTable(
      headers,
      rows.map((row) => row.map(redact)),
      color,
      {
        width,
        shrinkable: shrinkable ?? headers.map(isShrinkableField),
        dropOrder,
        wrap,
        headers: withHeaders,
      },
    );
  }

  /** Whether an item makes a row per element of its array field (orders: a row per line). */
  private splitsLines<T>(view: View<T>): boolean {
    const perLine = view.perLine;
    if (!perLine) return false;
    if (perLine.always) return true;
    return (this.settings.fields ?? []).some((field) => field.startsWith(`${perLine.field}.`));
  }

  /** The table, csv and tsv rows of one item: itself, or one per element of its array field. */
  private rowsOf<T>(whole: T, view: View<T>): unknown[] {
    const item = this.forText(whole, view);
    const field = view.perLine?.field;
    if (!field || !this.splitsLines(view)) return [item];
    const elements = (item as Record<string, unknown>)[field];
    // An item without elements still makes its row, its element's cells empty.
    if (!Array.isArray(elements) || elements.length === 0) return [{ ...item, [field]: null }];
    return elements.map((element) => ({ ...item, [field]: element }));
  }

  /**
   * The csv and tsv columns of `fields`: with --fields, an object of known shape named whole
   * gives its fields, one column each (the view's own fields name leaves already).
   */
  private columnsFor(fields: string[], first: unknown): string[] {
    const { knownFields, fields: asked } = this.settings;
    return asked && knownFields ? flatColumns(fields, knownFields, first) : fields;
  }

  /** --fields, else the view's fields (with its per-line ones when split), else the first item's leaf paths. */
  private fieldsFor<T>(view: View<T>, first: unknown): string[] {
    if (this.settings.fields) return this.withSimulated(this.settings.fields);
    if (view.fields.length > 0) {
      return this.withSimulated(
        this.splitsLines(view) && view.perLine ? [...view.fields, ...view.perLine.fields] : view.fields,
      );
    }
    return first && typeof first === 'object' ? leafPaths(first as Record<string, unknown>) : [];
  }

  /** An item as json and ndjson carry it (and --query sees it): as given, --fields kept. */
  private shape(item: unknown): unknown {
    return this.mark(this.pick(item));
  }

  /** An item as tables, csv and tsv show it: without what the view keeps out of text (buyer data). */
  private forText<T>(item: T, view: View<T> | undefined): T {
    return this.mark(view?.hideInText ? view.hideInText(item) : item) as T;
  }

  /** The run wrote with a test key: its results are simulated. */
  private get simulated(): boolean {
    return this.settings.simulated?.() ?? false;
  }

  /** A result object with `simulated: true` once a test key wrote (unless it says so itself, as summaries do). */
  private mark(value: unknown): unknown {
    if (!this.simulated || value === null || typeof value !== 'object' || Array.isArray(value)) return value;
    return 'simulated' in value ? value : { ...value, simulated: true };
  }

  /** Fixed fields, with `simulated` after them once a test key wrote. */
  private withSimulated(fields: string[]): string[];
  private withSimulated(fields: string[] | undefined): string[] | undefined;
  private withSimulated(fields: string[] | undefined): string[] | undefined {
    if (!fields || !this.simulated || fields.includes('simulated')) return fields;
    return [...fields, 'simulated'];
  }

  /** A summary with the test key's note once a test key wrote. */
  private noted(summary: string | Styled): string | Styled {
    if (!this.simulated) return summary;
    const note = simulatedNote(false);
    return typeof summary === 'string'
      ? `${summary}${note}`
      : new Styled(`${summary.text}${escapeLine(note)}`);
  }

  private pick(item: unknown): unknown {
    return this.settings.fields ? pickPaths(item, this.settings.fields) : item;
  }

  /** An item of a json list: one line when piped, indented (and coloured) on a terminal. */
  private jsonInList(value: unknown): string {
    return this.settings.pretty ? `  ${indentAfterFirst(this.prettyJson(value), '  ')}` : jsonText(value);
  }

  private prettyJson(value: unknown): string {
    return prettyJson(value, this.settings.color && this.settings.pretty === true);
  }

  private writeHeader(fields: string[]): Promise<void> | void {
    if (this.settings.headers === false) return;
    return writeText(this.io.stdout, this.delimited(fields));
  }

  /** The cells of one csv or tsv row; with --decimal-comma, csv decimals written with `,`. */
  private rowCells(fields: readonly string[], row: unknown): string[] {
    const comma = this.settings.decimalComma === true && this.settings.format === 'csv';
    return fields.map((f) => {
      const value = getPath(row, f);
      const text = cellText(value);
      return comma ? decimalCommaCell(value, f, text) : text;
    });
  }

  private delimited(cells: string[]): string {
    if (this.settings.format === 'csv') {
      const delimiter = this.settings.decimalComma ? ';' : ',';
      return this.withBom(
        csvRow(
          cells.map((cell) => this.onStdout(this.excelCell(cell))),
          '\n',
          delimiter,
        ),
      );
    }
    return `${cells.map((cell) => this.onStdout(tsvField(cell))).join('\t')}\n`;
  }

  /** A csv cell as --excel writes it: a cell a spreadsheet would run as a formula kept as text. */
  private excelCell(cell: string): string {
    return this.settings.excel ? spreadsheetCell(cell) : cell;
  }

  /** The first csv text of an --excel run, after the BOM. */
  private withBom(text: string): string {
    if (!this.bomDue) return text;
    this.bomDue = false;
    return `${UTF8_BOM}${text}`;
  }
}

/** Every item of a list, shaped, in one array (--query sees the whole result). */
async function gather<T>(items: AsyncIterable<T>, shape: (item: T) => unknown): Promise<unknown[]> {
  const gathered: unknown[] = [];
  try {
    for await (const item of items) gathered.push(shape(item));
  } catch (error) {
    // Nothing was printed: a query over part of a list would answer wrongly.
    throw new CrawlInterrupted(0, error);
  }
  return gathered;
}
