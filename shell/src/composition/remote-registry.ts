import type { ComponentType } from 'react';
import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import type { ExposedModule, RemoteModuleProps } from '@campus/kit/remote-modules';
import type { RemoteName, RuntimeConfig } from '../app/runtime-config';

const MEMBER_REMOTES = ['mf_feed', 'mf_profile', 'mf_notifications'] as const;
const registered = new Set<RemoteName>();
let entries: Partial<Record<RemoteName, string>> = {};

/** The remotes every signed-in member uses. The admin remote is left out on purpose. */
export function registerMemberRemotes(config: RuntimeConfig): void {
  entries = config.remotes;
  registerRemotes(MEMBER_REMOTES.map((name) => ({ name, entry: config.remotes[name] })));
  MEMBER_REMOTES.forEach((name) => registered.add(name));
}

/** Called only on the admin's /analytics route, so nobody else downloads any mf_admin file. */
export function registerAdminRemote(config: RuntimeConfig): void {
  if (registered.has('mf_admin')) return;
  entries.mf_admin = config.remotes.mf_admin;
  registerRemotes([{ name: 'mf_admin', entry: config.remotes.mf_admin }]);
  registered.add('mf_admin');
}

/** After a failed load, registers the remote again so the next attempt fetches it afresh. */
export function resetRemote(name: RemoteName): void {
  const entry = entries[name];
  if (entry && registered.has(name)) registerRemotes([{ name, entry }], { force: true });
}

/**
 * Loads an exposed module (`mf_feed/FeedPage`) and returns its default export: a component
 * taking the props the kit's map of remote modules names for it.
 */
export async function loadRemoteComponent<R extends RemoteName, E extends ExposedModule<R>>(
  remote: R,
  exposed: E,
): Promise<ComponentType<RemoteModuleProps<R, E>>> {
  if (!registered.has(remote)) throw new Error(`Remote ${remote} is not available`);
  const module = await loadRemote<{ default: ComponentType<RemoteModuleProps<R, E>> }>(
    `${remote}/${exposed}`,
  );
  if (!module?.default) throw new Error(`${remote}/${exposed} could not be loaded`);
  return module.default;
}
