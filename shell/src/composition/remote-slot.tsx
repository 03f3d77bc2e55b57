import {
  lazy,
  Suspense,
  useState,
  type ComponentType,
  type LazyExoticComponent,
  type ReactNode,
} from 'react';
import type { RemoteName } from '../app/runtime-config';
import { RemoteBoundary } from './remote-boundary';
import { loadRemoteDefault, resetRemote } from './remote-registry';

type AnyProps = Record<string, unknown>;

/** One lazy component per exposed module, kept while it works so navigating back is instant. */
const lazies = new Map<string, LazyExoticComponent<ComponentType<AnyProps>>>();

function lazyRemote(remote: RemoteName, exposed: string) {
  const id = `${remote}/${exposed}`;
  let component = lazies.get(id);
  if (!component) {
    component = lazy(async () => {
      try {
        return { default: await loadRemoteDefault<ComponentType<AnyProps>>(remote, exposed) };
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

interface RemoteSlotProps<P extends AnyProps> {
  remote: RemoteName;
  exposed: string;
  props?: P;
  fallback: ReactNode;
  what: string;
  compact?: boolean;
}

/**
 * Mounts a module exposed by a remote inside its own boundary: `fallback` while it loads, an
 * error view with Retry when it fails. A different module is a different slot (remounted).
 */
export function RemoteSlot<P extends AnyProps>(slot: RemoteSlotProps<P>) {
  return <Slot key={`${slot.remote}/${slot.exposed}`} {...slot} />;
}

function Slot<P extends AnyProps>({
  remote,
  exposed,
  props,
  fallback,
  what,
  compact,
}: RemoteSlotProps<P>) {
  const [Remote, setRemote] = useState(() => lazyRemote(remote, exposed));
  return (
    <RemoteBoundary
      what={what}
      compact={compact}
      onRetry={() => setRemote(() => lazyRemote(remote, exposed))}
    >
      <Suspense fallback={fallback}>
        <Remote {...(props ?? {})} />
      </Suspense>
    </RemoteBoundary>
  );
}
