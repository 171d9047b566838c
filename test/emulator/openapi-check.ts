/**
 * Checks answers against the document: the operation a method and path are, the documented
 * response of the status, the headers it requires and the body's schema (JSON Schema 2020-12,
 * with formats). By default against the document's closed twin (no unlisted property or enum
 * value: exactly what the emulator sends), which is stricter than docs/openapi.json, whose
 * answers are open; its drift test keeps the committed file equal to the generated one.
 * Used by the conformance run and the document's tests.
 */
import { join } from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { strictOpenApiDocument } from '../../src/contract/openapi.js';

/** The committed document's path. */
export const OPENAPI_PATH = join(import.meta.dirname, '..', '..', 'docs', 'openapi.json');

// biome-ignore lint/suspicious/noExplicitAny: the document is walked as plain JSON.
type Doc = any;

/** What one checked answer was. */
export interface Exchange {
  method: string;
  /** Below /rest/v1, with or without the query. */
  path: string;
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

const DOC_ID = 'https://svc.invalid/openapi.json';
// ajv-formats is CommonJS: its default export is the plugin, seen through `default` from ESM types.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

/** The document, and a checker of answers against it. */
export class OpenApiCheck {
  readonly doc: Doc;
  private readonly ajv: Ajv2020;
  private readonly compiled = new Map<string, ValidateFunction>();
  /** `METHOD /template status` of every answer checked, to see what a run covered. */
  readonly seen = new Set<string>();

  constructor(doc: Doc = structuredClone(strictOpenApiDocument())) {
    this.doc = doc;
    this.ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(this.ajv);
    this.ajv.addSchema({ ...doc, $id: DOC_ID });
  }

  /** The path template of the document that `path` is (a literal segment wins over a parameter). */
  template(path: string): string | undefined {
    const segments = path.split('?')[0]?.split('/').filter(Boolean) ?? [];
    const candidates = Object.keys(this.doc.paths).filter((template) => {
      const parts = template.split('/').filter(Boolean);
      return (
        parts.length === segments.length &&
        parts.every((part, index) => part.startsWith('{') || part === segments[index])
      );
    });
    return candidates.sort((a, b) => a.split('{').length - b.split('{').length)[0];
  }

  /** Every way the answer departs from the document; none when it conforms. */
  problems(exchange: Exchange): string[] {
    const method = exchange.method.toLowerCase();
    const where = `${exchange.method} ${exchange.path} → ${exchange.status}`;
    const template = this.template(exchange.path);
    const operation = template ? this.doc.paths[template]?.[method] : undefined;
    if (!template || !operation) return [`${where}: no such operation in the document`];
    this.seen.add(`${exchange.method.toUpperCase()} ${template} ${exchange.status}`);
    let response = operation.responses[String(exchange.status)];
    if (!response) return [`${where}: status not documented`];
    if (response.$ref) response = this.resolve(response.$ref);
    const problems: string[] = [];
    for (const [name, declared] of Object.entries(response.headers ?? {})) {
      // biome-ignore lint/suspicious/noExplicitAny: a header object of the document.
      const header: any = (declared as { $ref?: string }).$ref
        ? this.resolve((declared as { $ref: string }).$ref)
        : declared;
      const value = exchange.headers[name.toLowerCase()];
      if (value === undefined) {
        if (header.required) problems.push(`${where}: header ${name} missing`);
        continue;
      }
      const typed = header.schema?.type === 'integer' ? Number(value) : value;
      const validate = this.headerValidator(header.schema ?? {});
      if (!validate(typed))
        problems.push(`${where}: header ${name}=${value} ${this.ajv.errorsText(validate.errors)}`);
    }
    const media = response.content?.['application/json'];
    if (!media) {
      if (exchange.body !== undefined && method !== 'head')
        problems.push(`${where}: a body where none is documented`);
      return problems;
    }
    const pointer = `#/paths/${pointerSegment(template)}/${method}/responses/${exchange.status}`;
    const key =
      response === operation.responses[String(exchange.status)]
        ? pointer
        : (operation.responses[String(exchange.status)].$ref as string);
    const validate = this.validator(`${key}/content/application~1json/schema`);
    if (!validate(exchange.body)) {
      const errors = (validate.errors ?? [])
        .slice(0, 5)
        .map((error) => `${error.instancePath} ${error.message} ${JSON.stringify(error.params)}`);
      problems.push(`${where}: body ${errors.join('; ')}`);
    }
    return problems;
  }

  private headerValidator(schema: object): ValidateFunction {
    const key = JSON.stringify(schema);
    let validate = this.compiled.get(key);
    if (!validate) {
      validate = this.ajv.compile(schema);
      this.compiled.set(key, validate);
    }
    return validate;
  }

  /** The validator of the schema at `pointer` (`#/components/schemas/Order`); throws when it does not compile. */
  compile(pointer: string): ValidateFunction {
    return this.validator(pointer);
  }

  private validator(pointer: string): ValidateFunction {
    let validate = this.compiled.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `${DOC_ID}${pointer}` });
      this.compiled.set(pointer, validate);
    }
    return validate;
  }

  /** The part of the document a local `$ref` points at; undefined when there is none. */
  // biome-ignore lint/suspicious/noExplicitAny: a part of the document.
  resolve(ref: string): any {
    return ref
      .replace(/^#\//, '')
      .split('/')
      .reduce((node, part) => node?.[part.replaceAll('~1', '/').replaceAll('~0', '~')], this.doc);
  }
}

/** A path template as one JSON pointer segment inside a URI fragment. */
function pointerSegment(template: string): string {
  return template.replaceAll('~', '~0').replaceAll('/', '~1').replaceAll('{', '%7B').replaceAll('}', '%7D');
}
