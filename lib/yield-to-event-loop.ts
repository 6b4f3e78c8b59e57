/**
 * Lets the requests waiting on this process run before the next slice of a long loop. A server
 * has one thread: a staleness check of 10,000 memories (each duplicate search tens of ms) held it
 * for seconds at a stretch, and every page stalled behind it.
 */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Calls `work` on each item, yielding to the event loop after every `slice` of them. */
export async function forEachYielding<T>(items: readonly T[], slice: number, work: (item: T) => void): Promise<void> {
  for (let index = 0; index < items.length; index++) {
    if (index > 0 && index % slice === 0) await yieldToEventLoop();
    work(items[index]!);
  }
}
