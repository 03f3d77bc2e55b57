import {
  lazy,
  Suspense,
  useState,
  type ComponentType,
  type LazyExoticComponent,
  type ReactNode,
} from 'react';
import type { ExposedModule, RemoteModuleProps } from '@campus/kit/remote-modules';
import type { RemoteName } from '../app/runtime-config';
import { RemoteBoundary } from './remote-boundary';
import { loadRemoteComponent, resetRemote } from './remote-registry';

type AnyProps = Record<string, unknown>;

/**
 * One lazy component per exposed module, kept while it works so navigating back is instant. The
 * props are checked where a slot is written (RemoteSlot below), so the cache holds them untyped.
 */
const lazies = new Map<string, LazyExoticComponent<ComponentType<AnyProps>>>();
/** Modules already loaded (by `warmRemote` or a slot): a slot renders them without suspending. */
const loaded = new Map<string, ComponentType<AnyProps>>();
/** Loads `warmRemote` started that no slot has taken yet. */
const warming = new Map<string, Promise<ComponentType<AnyProps>>>();

async function load<R extends RemoteName, E extends ExposedModule<R>>(remote: R, exposed: E) {
  const Component = (await loadRemoteComponent(remote, exposed)) as ComponentType<AnyProps>;
  loaded.set(`${remote}/${exposed}`, Component);
  return Component;
}

/**
 * Starts loading an exposed module now, before any slot asks for it: its remote's entry, its own
 * chunks and the shared modules it needs (the shell's landing route, while the session is being
 * checked). The slot that mounts it later takes this load. A load that fails before a slot took
 * it is forgotten and the remote registered afresh: the slot then loads it itself and shows its
 * error and Retry if that fails too.
 */
export function warmRemote<R extends RemoteName, E extends ExposedModule<R>>(
  remote: R,
  exposed: E,
): void {
  const id = `${remote}/${exposed}`;
  if (loaded.has(id) || warming.has(id) || lazies.has(id)) return;
  const pending = load(remote, exposed);
  warming.set(id, pending);
  pending.catch(() => {
    if (warming.get(id) !== pending) return; // a slot took it and handles the failure
    warming.delete(id);
    resetRemote(remote);
  });
}

function lazyRemote<R extends RemoteName, E extends ExposedModule<R>>(remote: R, exposed: E) {
  const id = `${remote}/${exposed}`;
  let component = lazies.get(id);
  if (!component) {
    component = lazy(async () => {
      const warm = warming.get(id);
      warming.delete(id);
      try {
        return { default: await (warm ?? load(remote, exposed)) };
      } catch (error) {
        lazies.delete(id); // the next attempt builds a fresh lazy and fetches again
        loaded.delete(id);
        resetRemote(remote);
        throw error;
      }
    });
    lazies.set(id, component);
  }
  return component;
}

/** `props` is required exactly when the module's props (kit's map of remote modules) are. */
export type PropsOf<R extends RemoteName, E extends ExposedModule<R>> =
  Record<never, never> extends RemoteModuleProps<R, E>
    ? { props?: RemoteModuleProps<R, E> }
    : { props: RemoteModuleProps<R, E> };

type RemoteSlotProps<R extends RemoteName, E extends ExposedModule<R>> = {
  remote: R;
  exposed: E;
  fallback: ReactNode;
  what: string;
  compact?: boolean;
} & PropsOf<R, E>;

/**
 * Mounts a module exposed by a remote inside its own boundary: `fallback` while it loads, an
 * error view with Retry when it fails. A different module is a different slot (remounted).
 */
export function RemoteSlot<R extends RemoteName, E extends ExposedModule<R>>(
  slot: RemoteSlotProps<R, E>,
) {
  return <Slot key={`${slot.remote}/${slot.exposed}`} {...slot} />;
}

function Slot<R extends RemoteName, E extends ExposedModule<R>>({
  remote,
  exposed,
  props,
  fallback,
  what,
  compact,
}: RemoteSlotProps<R, E>) {
  // Already loaded (warmed while the session was checked, or shown before): rendered at once.
  const [Remote, setRemote] = useState<ComponentType<AnyProps>>(
    () => loaded.get(`${remote}/${exposed}`) ?? lazyRemote(remote, exposed),
  );
  return (
    <RemoteBoundary
      what={what}
      compact={compact}
      onRetry={() => setRemote(() => lazyRemote(remote, exposed))}
    >
      <Suspense fallback={fallback}>
        <Remote {...((props ?? {}) as AnyProps)} />
      </Suspense>
    </RemoteBoundary>
  );
}
