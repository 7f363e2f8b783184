import { useSyncExternalStore } from 'react';

/** A tiny observable value: one idea per store, updated by pure functions. */
export class Store<T> {
  private readonly listeners = new Set<() => void>();
  constructor(private state: T) {}
  get = (): T => this.state;
  set(update: (s: T) => T): void {
    const next = update(this.state);
    if (next === this.state) return;
    this.state = next;
    for (const l of this.listeners) l();
  }
  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
}

/** Reads a slice of a store; `select` must return stable references (a part of the state, not a new object). */
export function useStore<T, S>(store: Store<T>, select: (s: T) => S): S {
  return useSyncExternalStore(store.subscribe, () => select(store.get()));
}
