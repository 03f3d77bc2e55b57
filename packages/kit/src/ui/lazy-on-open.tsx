import { useEffect, useLayoutEffect, useRef, useState, type ComponentType } from 'react';

/** What every dialog takes: whether it is open, and how it asks to close. */
export interface OpenableProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/**
 * A dialog whose code is fetched the first time it opens (issue 22: a page's first load carries
 * no dialog that nobody has opened yet). Closed, it renders nothing, as a closed dialog always
 * did; opened, it appears as soon as its code is there (a portal over the page: nothing on the
 * page moves) and stays loaded for every later opening. If the code cannot be fetched, the
 * dialog asks to close, `onLoadFailure` runs (to show a toast, say), and the next opening tries
 * again.
 */
export function lazyOnOpen<P extends OpenableProps>(
  load: () => Promise<ComponentType<P>>,
  onLoadFailure: (failure: unknown) => void = (failure) =>
    console.error('Could not load a dialog', failure),
): ComponentType<P> & { preload: () => Promise<ComponentType<P>> } {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<ComponentType<P>> | null = null;

  const preload = () =>
    (loading ??= load().then(
      (component) => (loaded = component),
      (failure: unknown) => {
        loading = null;
        throw failure;
      },
    ));

  function LazyOnOpen(props: P) {
    const { open } = props;
    const [Loaded, setLoaded] = useState<ComponentType<P> | null>(() => loaded);
    const onOpenChange = useRef(props.onOpenChange);
    useLayoutEffect(() => {
      onOpenChange.current = props.onOpenChange;
    });

    useEffect(() => {
      if (!open || Loaded) return;
      let current = true;
      preload().then(
        (component) => {
          if (current) setLoaded(() => component);
        },
        (failure: unknown) => {
          if (!current) return;
          onOpenChange.current(false);
          onLoadFailure(failure);
        },
      );
      return () => {
        current = false;
      };
    }, [open, Loaded]);

    return Loaded ? <Loaded {...props} /> : null;
  }
  return Object.assign(LazyOnOpen, { preload });
}
