// A sheet's door in the app's first download: it loads the sheet's chunk
// on first use (a dynamic import, no lazy() or Suspense, which would add
// to that download).

import { type Accessor, type Component, createSignal } from "solid-js";

export interface LazySheet<P extends object> {
  /** sheet is the sheet's component once loaded. */
  sheet: Accessor<Component<P> | undefined>;
  /** load fetches the sheet's chunk (once; again after a failure, e.g. offline). */
  load: () => Promise<void>;
}

export function lazySheet<P extends object>(importer: () => Promise<{ default: Component<P> }>): LazySheet<P> {
  const [sheet, setSheet] = createSignal<Component<P>>();
  let loading: Promise<void> | undefined;
  const load = () =>
    (loading ??= importer().then(
      (m) => void setSheet(() => m.default),
      (e) => {
        loading = undefined; // offline: a later tap tries again
        throw e;
      },
    ));
  return { sheet, load };
}
