/** The generated command reference as files: docs/commands/*.md and the man page. */
import type { CommandTree } from '../command-tree.js';
import { manPage } from './man.js';
import { markdownPages } from './markdown.js';

/** Where the Markdown reference lives in the repository. */
const REFERENCE_DIR = 'docs/commands';
/** Where the man page lives in the repository (and the package). */
const MAN_PAGE = 'man/svc.1';

/** Every generated file, by its path in the repository: docs/commands/*.md and the man page. */
export function commandReference(tree: CommandTree): Record<string, string> {
  const files: Record<string, string> = {};
  for (const [page, text] of Object.entries(markdownPages(tree))) files[`${REFERENCE_DIR}/${page}`] = text;
  files[MAN_PAGE] = manPage(tree);
  return files;
}
