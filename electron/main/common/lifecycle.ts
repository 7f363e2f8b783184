/** Something that owns a resource and ends it. Every child, PTY, socket and watcher has one owner. */
export interface Disposable {
  dispose(): void | Promise<void>;
}

/** Owns disposables and ends them in reverse order of registration, once. */
export class DisposableStore implements Disposable {
  private readonly items: Disposable[] = [];
  private disposed = false;

  add<T extends Disposable>(item: T): T {
    if (this.disposed) {
      void item.dispose();
      throw new Error('DisposableStore is already disposed');
    }
    this.items.push(item);
    return item;
  }

  /** Registers a plain function as a disposable. */
  defer(fn: () => void | Promise<void>): void {
    this.add({ dispose: fn });
  }

  get isDisposed(): boolean {
    return this.disposed;
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    const errors: unknown[] = [];
    for (const item of this.items.reverse()) {
      try {
        await item.dispose();
      } catch (err) {
        errors.push(err);
      }
    }
    this.items.length = 0;
    if (errors.length) throw new AggregateError(errors, `${errors.length} disposable(s) failed to dispose`);
  }
}
