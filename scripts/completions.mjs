// Regenerates completions/ from the built CLI (run `npm run completions`, which builds first),
// so that the committed scripts match the command tree; test/commands/completion.test.ts checks it.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Where each shell's script lives, by the name each shell looks for. */
const FILES = { bash: 'svc.bash', zsh: '_svc', fish: 'svc.fish' };

const bin = fileURLToPath(new URL('../bin/svc', import.meta.url));
for (const [shell, file] of Object.entries(FILES)) {
  const script = execFileSync(process.execPath, [bin, 'completion', shell], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  writeFileSync(new URL(`../completions/${file}`, import.meta.url), script);
  process.stdout.write(`completions/${file}\n`);
}
