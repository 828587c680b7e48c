// fetched loads data whenever its source changes, keeping only the newest
// answer: a small stand-in for createResource, which would pull Solid's
// suspense machinery into the app's first download for this lazy sheet.

import { createEffect, createSignal, untrack } from "solid-js";

export interface Fetched<T> {
  data: () => T | undefined;
  error: () => unknown;
  loading: () => boolean;
}

/** fetched calls load(source()) each time source changes (not while it is false). */
export function fetched<S, T>(source: () => S | false, load: (s: S) => Promise<T>): Fetched<T> {
  const [data, setData] = createSignal<T>();
  const [error, setError] = createSignal<unknown>();
  const [loading, setLoading] = createSignal(false);
  let generation = 0;
  createEffect(() => {
    const s = source();
    if (s === false) return;
    const gen = ++generation;
    setLoading(true);
    untrack(() => load(s)).then(
      (d) => {
        if (gen !== generation) return;
        setData(() => d);
        setError(undefined);
        setLoading(false);
      },
      (e) => {
        if (gen !== generation) return;
        setError(() => e);
        setLoading(false);
      },
    );
  });
  return { data, error, loading };
}
