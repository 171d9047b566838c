import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { bashScript } from '../../../../src/core/completion/bash.js';
import { fishScript } from '../../../../src/core/completion/fish.js';
import { completionScript } from '../../../../src/core/completion/script.js';
import { SHELLS } from '../../../../src/core/completion/shells.js';
import { zshScript } from '../../../../src/core/completion/zsh.js';
import { sampleTree } from './sample-tree.js';

describe('bashScript', () => {
  const script = bashScript(sampleTree);

  it('is valid bash and registers _svc for svc', () => {
    const result = spawnSync('bash', ['-n'], { input: script, encoding: 'utf8' });
    expect(result.status, result.stderr).toBe(0);
    expect(script.trimEnd().endsWith('complete -F _svc svc')).toBe(true);
  });

  it("lists subcommands and flags per command path, globals after the command's own flags", () => {
    expect(script).toContain("    'images') _svc_reply=('add') ;;");
    expect(script).toContain(
      "    'orders') _svc_reply=(--status --channel-account --file --dry-run --profile -o --output --json) ;;",
    );
    expect(script).toContain('    *) _svc_reply=(--profile -o --output --json) ;;');
  });

  it('tries the exact rule for a flag before the wildcard for a global of the same name', () => {
    const exact = script.indexOf("'images add|--output' | 'images add|#1') : ;;");
    const global = script.indexOf("*'|-o' | *'|--output') _svc_choices 'json csv' ;;");
    expect(exact).toBeGreaterThan(0);
    expect(global).toBeGreaterThan(exact);
    expect(script).toContain("'images add|#'*) _svc_files ;;");
    expect(script).toContain("*'|--profile') _svc_profiles ;;");
  });
});

describe('zshScript', () => {
  const script = zshScript(sampleTree);

  it('starts with #compdef and quotes descriptions that hold a quote', () => {
    expect(script.startsWith('#compdef svc\n')).toBe(true);
    expect(script).toContain("'images:a product'\\''s images'");
    expect(script).toContain("'--json:same as -o json, it'\\''s short'");
  });

  it('offers choices with compadd and files with _files', () => {
    expect(script).toContain("('orders|--status') compadd -- 'shipped' 'canceled' ;;");
    expect(script).toContain("('orders|--file') _files ;;");
  });
});

describe('fishScript', () => {
  const script = fishScript(sampleTree);

  it('disables file completion by default and enables it where a flag reads a file', () => {
    expect(script).toContain('complete -c svc -f\n');
    expect(script).toContain("complete -c svc -n '__svc_at \\'orders\\'' -l file -r -F -d 'shipments'");
  });

  it('offers choices with empty descriptions and escapes quotes in descriptions', () => {
    expect(script).toContain("-l status -x -a 'shipped\\\\t canceled\\\\t' -d 'status'");
    expect(script).toContain("-l json -d 'same as -o json, it\\'s short'");
    expect(script).toContain("complete -c svc -n '__svc_at \\'\\'' -a images -d 'a product\\'s images'");
  });
});

describe('completionScript', () => {
  it('dispatches to each shell', () => {
    expect(SHELLS.map((shell) => completionScript(shell, sampleTree))).toEqual([
      bashScript(sampleTree),
      zshScript(sampleTree),
      fishScript(sampleTree),
    ]);
  });
});
