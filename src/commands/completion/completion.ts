import { defineCommand } from '../../cmdutil/define.js';
import { completionScript } from '../../core/completion/script.js';
import { SHELLS, type Shell } from '../../core/completion/shells.js';

/**
 * `svc completion bash|zsh|fish`: the script is generated from every command of the tree,
 * whatever part of it this run registered.
 */
export const command = defineCommand<{ shell: Shell }>({
  path: ['completion'],
  group: 'Setup',
  rank: 9,
  description: 'print the shell completion script for bash, zsh or fish',
  args: [{ name: 'shell', description: 'the shell to complete in', choices: SHELLS }],
  takes: { output: 'none', offline: true },
  notes: [
    'The script completes commands, flags, output formats, statuses, event types and your profile names.',
  ],
  examples: [
    'source <(svc completion bash)                              # bash: add this line to ~/.bashrc',
    'svc completion zsh > ~/.zfunc/_svc                         # zsh: with fpath+=(~/.zfunc) before compinit',
    'svc completion fish > ~/.config/fish/completions/svc.fish  # fish',
  ],
  async run({ shell }, deps) {
    await deps.io.printer.raw(completionScript(shell, await deps.commandTree()).trimEnd());
  },
});
