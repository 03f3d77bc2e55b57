// Test double for '@module-federation/enhanced/runtime' (mapped in jest.config.cjs): every
// exposed module is a component that names itself, and a test can make a remote fail or keep
// its code from ever arriving (its page's skeleton stays).
import type { ComponentType } from 'react';

export const registeredRemotes: string[] = [];
export const failingRemotes = new Set<string>();
export const pendingRemotes = new Set<string>();

export function registerRemotes(remotes: { name: string; entry: string }[]): void {
  registeredRemotes.push(...remotes.map((remote) => remote.name));
}

export async function loadRemote<T>(id: string): Promise<T> {
  const remote = id.split('/')[0] ?? '';
  if (failingRemotes.has(remote)) throw new Error(`${remote} is down`);
  if (pendingRemotes.has(remote)) return new Promise<T>(() => undefined);
  const Exposed: ComponentType<Record<string, unknown>> = (props) => (
    <p>
      remote {id}
      {typeof props.kind === 'string' ? ` (${props.kind})` : ''}
      {typeof props.onClose === 'function' && (
        <button type="button" onClick={props.onClose as () => void}>
          Close {id}
        </button>
      )}
    </p>
  );
  return { default: Exposed } as T;
}
