/**
 * The entry of dist/help.cjs, the script bin/svc runs, with V8's code cache, for a command line
 * that asks for help: the program and the command definitions, without what commands run
 * (scripts/bundle.mjs). A command line that runs a command after all goes to dist/cli.js.
 */
export { mainForHelp } from './main.js';
