/** A keyring in memory, handed to the one module that talks to the keyring in place of the OS one. */
import { type KeyringBackend, KeyringUnavailable } from '../../src/config/keyring.js';

/** An in-memory keyring that counts its calls and can be made to fail like a locked one. */
export class FakeKeyring implements KeyringBackend {
  readonly entries = new Map<string, string>();
  readonly calls: string[] = [];
  /** When set, every call fails with this reason, as a locked or absent keyring does. */
  failing?: string;

  async get(account: string): Promise<string | undefined> {
    this.called('get', account);
    return this.entries.get(account);
  }

  async set(account: string, secret: string): Promise<void> {
    this.called('set', account);
    this.entries.set(account, secret);
  }

  async delete(account: string): Promise<boolean> {
    this.called('delete', account);
    return this.entries.delete(account);
  }

  private called(op: string, account: string): void {
    this.calls.push(`${op} ${account}`);
    if (this.failing) throw new KeyringUnavailable(this.failing);
  }
}
