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

function lazyRemote<R extends RemoteName, E extends ExposedModule<R>>(remote: R, exposed: E) {
  const id = `${remote}/${exposed}`;
  let component = lazies.get(id);
  if (!component) {
    component = lazy(async () => {
      try {
        const Component = await loadRemoteComponent(remote, exposed);
        return { default: Component as ComponentType<AnyProps> };
      } catch (error) {
        lazies.delete(id); // the next attempt builds a fresh lazy and fetches again
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
  const [Remote, setRemote] = useState(() => lazyRemote(remote, exposed));
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
