import { describe, expect, it } from 'vitest';
import { commandTitle, writeAnnotations } from '../../../src/output/github-actions.js';

function written(run: (io: { stderr: { write: (text: string) => boolean } }) => void): string {
  let text = '';
  run({
    stderr: {
      write: (chunk: string) => {
        text += chunk;
        return true;
      },
    },
  });
  return text;
}

describe('workflow annotations', () => {
  it('escape %, CR and LF in the message, and : and , in properties; no control characters', () => {
    const text = written((io) =>
      writeAnnotations(
        io as never,
        'svc inventory push',
        [{ file: 'in: a,b.csv', line: 3, message: '100% bad\r\nnext \u001b[31mred' }],
        1,
        'x',
      ),
    );
    expect(text).toBe(
      '::error file=in%3A a%2Cb.csv,line=3,title=svc inventory push::100%25 bad\\r\\nnext \\e[31mred\n',
    );
    expect([...text.trimEnd()].some((char) => char.charCodeAt(0) < 0x20)).toBe(false);
  });

  it('standard input is no file to point at', () => {
    const text = written((io) =>
      writeAnnotations(io as never, 't', [{ file: '-', line: 2, message: 'm' }], 1, 'x'),
    );
    expect(text).toBe('::error line=2,title=t::m\n');
  });

  it('the title is the command words', () => {
    expect(commandTitle(['inventory', 'push', 'stock.csv', '--dry-run'])).toBe('svc inventory push');
    expect(commandTitle(['orders', 'fulfill', '--file', 'x.csv'])).toBe('svc orders fulfill');
  });
});
