/** The only place results reach stdout: lists stream, single items print whole. */
import { CrawlInterrupted } from '../errors.js';
import { csvRow, tsvRow } from './delimited.js';
import { escapeLine, escapeText, jsonText } from './escape.js';
import { cellText, getPath, leafPaths, pickPaths } from './fields.js';
import { type IO, writeText } from './io.js';
import { renderTable } from './table.js';
import type { OutputSettings, View } from './view.js';

/** How `item` shows one resource. */
export interface ItemOptions<T> {
  view?: View<T>;
  /** The text shown on a terminal instead of the generic vertical table. */
  summary?: (item: T, now: number) => string;
}

/** Writes results in the chosen format. */
export class Printer {
  constructor(
    private readonly io: IO,
    private readonly settings: OutputSettings,
  ) {}

  /**
   * Streams a list: ndjson, csv and tsv row by row as pages arrive; json as one array that
   * is closed even when the crawl fails midway (then CrawlInterrupted says how far it got).
   * Returns how many items were written.
   */
  async list<T>(items: AsyncIterable<T>, view: View<T>): Promise<number> {
    const { format } = this.settings;
    if (format === 'table') return this.tableList(items, view);
    const out = this.io.stdout;
    let count = 0;
    let header: string[] | undefined;
    if (format === 'json') await writeText(out, '[');
    try {
      for await (const item of items) {
        if (format === 'json') {
          await writeText(out, `${count === 0 ? '\n' : ',\n'}${jsonText(this.shape(item, view))}`);
        } else if (format === 'ndjson') {
          await writeText(out, `${jsonText(this.shape(item, view))}\n`);
        } else {
          const rows = view.rows ? view.rows(item) : [item];
          header ??= this.fieldsFor(view, rows[0]);
          if (count === 0) await writeText(out, this.delimited(header));
          for (const row of rows)
            await writeText(out, this.delimited(header.map((f) => cellText(getPath(row, f)))));
        }
        count++;
      }
    } catch (error) {
      if (format === 'json') await writeText(out, count === 0 ? ']\n' : '\n]\n');
      throw new CrawlInterrupted(count, error);
    }
    if (format === 'json') await writeText(out, count === 0 ? ']\n' : '\n]\n');
    else if ((format === 'csv' || format === 'tsv') && count === 0) {
      await writeText(out, this.delimited(this.fieldsFor(view, undefined)));
    }
    return count;
  }

  /**
   * Prints one resource: on a terminal its `summary` or a vertical table, else as the
   * format says.
   */
  async item<T>(item: T, options: ItemOptions<T> = {}): Promise<void> {
    const { format } = this.settings;
    const out = this.io.stdout;
    const shaped = options.view ? this.shape(item, options.view) : this.pick(item);
    if (format === 'json') return this.json(shaped, 2);
    if (format === 'ndjson') return this.json(shaped);
    const record = shaped as Record<string, unknown>;
    if (format === 'table') {
      if (options.summary && !this.settings.fields)
        return writeText(out, `${escapeText(options.summary(item, this.settings.now))}\n`);
      return writeText(out, await this.detail(record));
    }
    const fields = this.settings.fields ?? leafPaths(record);
    await writeText(out, this.delimited(fields));
    await writeText(out, this.delimited(fields.map((f) => cellText(getPath(record, f)))));
  }

  /** Writes text for people to stdout (a secret shown once, a URL), control characters escaped. */
  text(line: string): Promise<void> | void {
    return writeText(this.io.stdout, `${escapeText(line)}\n`);
  }

  /** Writes machine text to stdout exactly as given (a shell completion script). */
  raw(text: string): Promise<void> | void {
    return writeText(this.io.stdout, `${text}\n`);
  }

  /** Writes one value as JSON to stdout (indented by `indent`, else on one line). */
  json(value: unknown, indent?: number): Promise<void> | void {
    return writeText(this.io.stdout, `${jsonText(value, indent)}\n`);
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
    const { now, color } = this.settings;
    const fields =
      this.settings.fields ?? (view.columns.length === 0 ? this.fieldsFor(view, items[0]) : undefined);
    const rendered = fields
      ? await renderTable(
          fields,
          items
            .flatMap((item) => (view.rows ? view.rows(item) : [item]))
            .map((row) => fields.map((f) => cellText(getPath(row, f)))),
          color,
        )
      : await renderTable(
          view.columns.map((c) => c.header),
          items.map((item) => view.columns.map((c) => c.cell(item, now))),
          color,
        );
    await writeText(this.io.stdout, rendered);
  }

  /** Scalars as `key: value` lines, lists of objects as small tables under their name. */
  private async detail(record: Record<string, unknown>): Promise<string> {
    const lines: string[] = [];
    const tables: string[] = [];
    const width = Math.max(...Object.keys(record).map((k) => k.length), 0);
    for (const [key, value] of Object.entries(record)) {
      if (Array.isArray(value) && value.length > 0 && value.every((v) => v && typeof v === 'object')) {
        const columns = [...new Set(value.flatMap((v) => leafPaths(v as Record<string, unknown>)))];
        const rows = value.map((v) => columns.map((c) => cellText(getPath(v, c))));
        tables.push(`\n${escapeLine(key)}:\n${await renderTable(columns, rows, this.settings.color)}`);
      } else if (value && typeof value === 'object' && !Array.isArray(value)) {
        for (const path of leafPaths(value as Record<string, unknown>)) {
          lines.push(
            `${escapeLine(`${key}.${path}`).padEnd(width)}  ${escapeLine(cellText(getPath(value, path)))}`,
          );
        }
      } else {
        lines.push(`${escapeLine(key).padEnd(width)}  ${escapeLine(cellText(value))}`);
      }
    }
    return `${lines.join('\n')}\n${tables.join('')}`;
  }

  /** --fields, else the view's fields, else (a generic view) the first item's leaf paths. */
  private fieldsFor<T>(view: View<T>, first: unknown): string[] {
    if (this.settings.fields) return this.settings.fields;
    if (view.fields.length > 0) return view.fields;
    return first && typeof first === 'object' ? leafPaths(first as Record<string, unknown>) : [];
  }

  private shape<T>(item: T, view: View<T>): unknown {
    return this.pick(view.redact ? view.redact(item) : item);
  }

  private pick(item: unknown): unknown {
    return this.settings.fields ? pickPaths(item, this.settings.fields) : item;
  }

  private delimited(cells: string[]): string {
    return this.settings.format === 'csv' ? csvRow(cells) : tsvRow(cells);
  }
}
