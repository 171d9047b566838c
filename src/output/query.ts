/**
 * `--query EXPR`: JMESPath (@jmespath-community/jmespath) over the whole result, compiled
 * before anything is sent. The library is imported only when the flag is given.
 */
import { UsageError } from '../errors.js';

/** A compiled --query, applied to the whole result (every item of a list, or the one item). */
export interface Query {
  readonly expression: string;
  /** The field the expression starts by picking (`status`, `buyer.name`): on a whole list, always null. */
  readonly leadingField?: string;
  apply(value: unknown): unknown;
}

/** Compiles `expression`; a bad one is a UsageError (exit 2) with the parser's message and position. */
export async function compileQuery(expression: string): Promise<Query> {
  const { compile, isRegistered, tokenize, TreeInterpreter } = await import('@jmespath-community/jmespath');
  if (expression.trim() === '')
    throw new UsageError(
      '--query needs an expression, e.g. --query "[].id" (JMESPath, https://jmespath.site)',
    );
  let node: ReturnType<typeof compile>;
  try {
    node = compile(expression);
  } catch (error) {
    const message = (error as Error).message;
    const position = errorPosition(expression, message, tokenStarts(expression, tokenize), (text) => {
      try {
        compile(text);
        return undefined;
      } catch (prefixError) {
        return (prefixError as Error).message;
      }
    });
    throw queryError(expression, message, position);
  }
  // The parser takes any name as a function; the interpreter would refuse it only once the
  // whole result was fetched.
  const unknown = functionNames(node).find((name) => !isRegistered(name));
  if (unknown !== undefined) {
    const at = new RegExp(`\\b${unknown}\\s*\\(`).exec(expression)?.index;
    throw queryError(expression, `unknown function ${unknown}()`, at);
  }
  return {
    expression,
    leadingField: leadingField(node),
    apply(value) {
      try {
        return TreeInterpreter.search(node, toJson(value) as Parameters<typeof TreeInterpreter.search>[1]);
      } catch (error) {
        throw new UsageError(
          `--query "${expression}" failed on the result: ${(error as Error).message}; check the expression (JMESPath, https://jmespath.site)`,
        );
      }
    },
  };
}

/** The name of the field `node` picks first, when it starts with one (`a`, `a.b`, `a.b | c`). */
function leadingField(node: unknown): string | undefined {
  let at = node as { type?: string; name?: unknown; left?: unknown };
  while (at.type === 'Subexpression' || at.type === 'Pipe') at = at.left as typeof at;
  return at.type === 'Field' && typeof at.name === 'string' ? at.name : undefined;
}

/**
 * Where in `expression` the parser failed (0-based), since its errors do not say: the end for
 * an unexpected end; else the start of the first token whose prefix fails with the same message
 * (the parser reads left to right, so the first prefix that holds the bad token fails as the
 * whole does); when the lexer failed (no tokens), the last character of the first such prefix.
 */
function errorPosition(
  expression: string,
  message: string,
  starts: readonly number[] | undefined,
  errorOf: (text: string) => string | undefined,
): number | undefined {
  if (/\bEOF\b|end of/i.test(message)) return expression.length;
  if (starts) {
    for (const [index, start] of starts.entries()) {
      const end = starts[index + 1] ?? expression.length;
      if (errorOf(expression.slice(0, end)) === message) return start;
    }
    return undefined;
  }
  for (let length = 1; length <= expression.length; length++) {
    if (errorOf(expression.slice(0, length)) === message) return length - 1;
  }
  return undefined;
}

/** Where each token starts, or undefined when the expression does not even lex. */
function tokenStarts(
  expression: string,
  tokenize: (text: string) => Array<{ start: number; type: string }>,
): number[] | undefined {
  try {
    return tokenize(expression)
      .filter((token) => token.type !== 'EOF')
      .map((token) => token.start);
  } catch {
    return undefined;
  }
}

function queryError(expression: string, message: string, position: number | undefined): UsageError {
  const where = position === undefined ? '' : ` at character ${position + 1}`;
  const error = new UsageError(
    `--query: ${message.replace(/^Syntax error[:,]\s*/i, 'syntax error: ')}${where}; check the expression (JMESPath, https://jmespath.site)`,
    position === undefined ? [] : [expression, `${' '.repeat(position)}^`],
  );
  if (position !== undefined) Object.assign(error, { position });
  return error;
}

/** The names of the functions an expression calls, from its syntax tree. */
function functionNames(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(functionNames);
  if (node === null || typeof node !== 'object') return [];
  const { type, name } = node as { type?: unknown; name?: unknown };
  const own = type === 'Function' && typeof name === 'string' ? [name] : [];
  return [...own, ...Object.values(node).flatMap(functionNames)];
}

/** The value as plain JSON data (dates and class instances as JSON would write them). */
function toJson(value: unknown): unknown {
  return value === undefined ? null : JSON.parse(JSON.stringify(value));
}
