/**
 * The entry of the single executable (`npm run build:sea`, docs/guide.md, A single executable): the
 * CLI, or the keyring helper when the executable runs itself for one keyring call (it is its
 * own Node, so it cannot be handed a script with `-e`).
 */
import { KEYRING_HELPER_ARG, runKeyringHelper } from '../config/keyring.js';
import { main } from './main.js';

if (process.argv[2] === KEYRING_HELPER_ARG && process.argv[3]) {
  runKeyringHelper(process.argv[3]);
} else {
  void main(process.argv).then((code) => {
    process.exitCode = code;
  });
}
