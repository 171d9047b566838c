/**
 * What makes a request's writes all-or-nothing: while a transaction is open every write to
 * the store records how to undo it, and the listeners of new events and operations (webhook
 * deliveries, the channels) hear of them only once it commits. A request that throws, with
 * an error answer or an unexpected failure, leaves the store as it found it; a batch item
 * that fails rolls back to its savepoint and leaves the other items applied.
 */
export class Journal {
  private undos: (() => void)[] | null = null;
  private deferred: (() => void)[] = [];

  /** True while a transaction is open (a write then needs to keep what it changes). */
  get recording(): boolean {
    return this.undos !== null;
  }

  /** Remember how to undo a write that just happened; nothing outside a transaction. */
  record(undo: () => void): void {
    this.undos?.push(undo);
  }

  /** Tell listeners now, or when the open transaction commits (and never when it rolls back). */
  notify(tell: () => void): void {
    if (this.undos) this.deferred.push(tell);
    else tell();
  }

  /** Run `work` as one transaction: committed when it returns, rolled back when it throws. */
  transaction<R>(work: () => R): R {
    if (this.undos) return this.savepoint(work);
    this.undos = [];
    this.deferred = [];
    let result: R;
    try {
      result = work();
    } catch (error) {
      this.rollbackTo(0);
      this.undos = null;
      this.deferred = [];
      throw error;
    }
    const told = this.deferred;
    this.undos = null;
    this.deferred = [];
    for (const tell of told) tell();
    return result;
  }

  /** Inside a transaction: undo only what `work` wrote when it throws (a batch item). */
  savepoint<R>(work: () => R): R {
    const undos = this.undos;
    if (!undos) return this.transaction(work);
    const mark = undos.length;
    const toldMark = this.deferred.length;
    try {
      return work();
    } catch (error) {
      this.rollbackTo(mark);
      this.deferred.length = toldMark;
      throw error;
    }
  }

  private rollbackTo(mark: number): void {
    const undos = this.undos as (() => void)[];
    // The undos write to the store too; they must not record undos of their own.
    this.undos = null;
    try {
      while (undos.length > mark) (undos.pop() as () => void)();
    } finally {
      this.undos = undos;
    }
  }
}
