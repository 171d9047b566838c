import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { helpBlocks } from '../../../../src/core/docs/help-text.js';
import { manPage } from '../../../../src/core/docs/man.js';
import { markdownPages } from '../../../../src/core/docs/markdown.js';
import { commandReference } from '../../../../src/core/docs/reference.js';
import { sampleTree } from '../completion/sample-tree.js';

describe('helpBlocks', () => {
  it('reads prose, headed indented blocks and bare indented blocks, dedented', () => {
    const text =
      'One note\nover two lines.\n\nExamples:\n  svc a\n    --b\n\n  raw,line\n\nExit codes: 0 done.';
    expect(helpBlocks(text)).toEqual([
      { kind: 'prose', lines: ['One note', 'over two lines.'] },
      { kind: 'code', heading: 'Examples', lines: ['svc a', '  --b'] },
      { kind: 'code', lines: ['raw,line'] },
      { kind: 'prose', lines: ['Exit codes: 0 done.'] },
    ]);
  });

  it('has nothing to say about empty help text', () => {
    expect(helpBlocks('')).toEqual([]);
  });
});

describe('markdownPages', () => {
  const pages = markdownPages(sampleTree);

  it('makes the index and a page per top-level command, leaving help commands out', () => {
    expect(Object.keys(pages)).toEqual(['README.md', 'images.md', 'orders.md']);
    expect(pages['README.md']).toContain('- [`svc images add`](images.md#svc-images-add): add images');
    expect(pages['README.md']).not.toMatch(/svc help\]/);
  });

  it("gives a command's usage, arguments, flags with defaults and choices, notes and examples", () => {
    const page = pages['images.md'] ?? '';
    expect(page).toContain(
      '## svc images add\n\nadd images\n\n```\nsvc images add [options] <id> <image...>\n```',
    );
    expect(page).toContain('| `<image...>` | files or URLs |');
    expect(page).toContain('| `--output <dir>` | where to | `"."` |');
    expect(page).toContain(
      '### Examples\n\n```sh\nsvc images add prod_1 a.jpg   # one file\nsvc images add prod_1 -\n```',
    );
    expect(page).toContain('Example file:\n\n```\n{"url": "https://example.com/a.jpg"}\n```');
    expect(pages['README.md']).toContain('| `-o, --output <format>` | format (one of: json, csv) |');
  });

  it('keeps help text literal: no HTML from angle brackets, no table cell split by a pipe', () => {
    const page = pages['images.md'] ?? '';
    expect(page).toContain('a backslash \\ and a &lt;tag&gt; stay text.');
    expect(page).toContain('.dotted line, | a pipe');
  });

  it('links every page to the global options, and names them', () => {
    expect(pages['orders.md']).toContain(
      'Every command also takes the [global options](README.md#global-options): `--profile`, `--output`, `--json`.',
    );
    expect(pages['README.md']).toContain('## Global options');
  });
});

describe('manPage', () => {
  const page = manPage(sampleTree);

  it('is svc(1) with no date or version in it, so it changes only with the commands', () => {
    expect(page.split('\n').filter((line) => line.startsWith('.TH'))).toEqual([
      '.TH SVC 1 "" "svc" "User Commands"',
    ]);
    expect(page).toContain('.SH NAME\nsvc \\- the CLI\n');
  });

  it('escapes what roff would read as markup: backslashes, hyphens, a leading dot, non-ASCII', () => {
    expect(page).toContain('a backslash \\e and a <tag> stay text.\n\\&.dotted line, | a pipe');
    expect(page).toContain('\\fB\\-o, \\-\\-output\\fR \\fI<format>\\fR\nformat (one of: json, csv)');
    expect(page).toContain('\\fB\\-\\-output\\fR \\fI<dir>\\fR\nwhere to (default: ".")');
    expect(page).toContain('product id (prod_\\[u2026])');
    expect(page).not.toMatch(/[^\x20-\x7e\n]/);
  });

  it('renders without a warning when groff is installed', () => {
    const groff = spawnSync('groff', ['-man', '-Tutf8', '-ww', '-z'], { input: page, encoding: 'utf8' });
    if (groff.error) return; // not installed here
    expect(groff.stderr).toBe('');
    expect(groff.status).toBe(0);
  });
});

describe('commandReference', () => {
  it('places the pages under docs/commands/ and the man page under man/', () => {
    expect(Object.keys(commandReference(sampleTree))).toEqual([
      'docs/commands/README.md',
      'docs/commands/images.md',
      'docs/commands/orders.md',
      'man/svc.1',
    ]);
  });
});
