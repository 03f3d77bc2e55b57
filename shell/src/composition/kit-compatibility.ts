import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';

const KIT_PREFIX = '@campus/kit/';

/**
 * How a remote's kit relates to the shell's. The kit follows semver and every app requires
 * `^<the kit version it was built with>` (rspack.shared.js), so:
 * - `compatible`: same major, the shell's kit is the same or newer: the remote runs on it as is;
 * - `newer-minor`: same major, the remote was built against a newer minor or patch: it still runs
 *   on the shell's kit (one session, one cache), but what that newer kit added is missing until
 *   the shell ships it;
 * - `incompatible`: another major: refused before any of the remote's code runs.
 */
export type KitVerdict = 'compatible' | 'newer-minor' | 'incompatible';

function parseVersion(version: string): [number, number, number] | null {
  const match = /^(\d+)\.(\d+)\.(\d+)/.exec(version);
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : null;
}

export function compareKitVersions(shellKit: string, remoteKit: string): KitVerdict {
  const shell = parseVersion(shellKit);
  const remote = parseVersion(remoteKit);
  if (!shell || !remote || shell[0] !== remote[0]) return 'incompatible';
  for (let part = 1; part < 3; part++) {
    if (shell[part]! > remote[part]!) return 'compatible';
    if (shell[part]! < remote[part]!) return 'newer-minor';
  }
  return 'compatible';
}

/** A remote built against a kit major the shell does not provide; shown in the remote's slot. */
export class KitVersionMismatchError extends Error {
  override readonly name = 'KitVersionMismatchError';

  constructor(
    readonly remote: string,
    readonly remoteKit: string,
    readonly shellKit: string,
  ) {
    super(
      `${remote} was built against @campus/kit ${remoteKit} and this shell provides ${shellKit}: ` +
        'another major version of the kit, so the shell refuses to load it. A new kit major ships ' +
        'in the shell first; then rebuild the remote against it (docs/feature-teams.md).',
    );
  }
}

/** Recognises the error above even if it crossed a bundle boundary (no `instanceof`). */
export function isKitVersionMismatch(error: unknown): error is KitVersionMismatchError {
  return error instanceof Error && error.name === 'KitVersionMismatchError';
}

interface SharedInfo {
  version?: string;
  from?: string;
}

/** The kit version the host itself provides, read from its own shared configuration. */
function providedKitVersion(shared: Record<string, SharedInfo[]>, hostName: string) {
  for (const [name, versions] of Object.entries(shared)) {
    if (!name.startsWith(KIT_PREFIX)) continue;
    const own = versions.find((info) => info.from === hostName);
    if (own?.version) return own.version;
  }
  return null;
}

/** The kit version a remote was built with, from its manifest (every kit entry carries it). */
function remoteKitVersion(snapshot: unknown): string | null {
  const shared = (snapshot as { shared?: { sharedName?: string; version?: string }[] }).shared;
  const kit = shared?.find((entry) => entry.sharedName?.startsWith(KIT_PREFIX));
  return kit?.version ?? null;
}

/**
 * A Module Federation runtime plugin for the shell: once a remote's manifest is read, and before
 * its remoteEntry.js is fetched, compares the kit the remote was built with to the shell's.
 * Another major is refused with a KitVersionMismatchError (the slot's boundary explains it, the
 * rest of the page keeps working); a newer minor is loaded on the shell's kit with a warning.
 * Refusing this early matters: a remote that never ran never registered its own copy of the kit
 * in the page's share scope, where other remotes could otherwise pick it up.
 */
export function kitCompatibilityPlugin(
  warn: (message: string) => void = (message) => console.warn(message),
): ModuleFederationRuntimePlugin {
  return {
    name: 'campus-kit-compatibility',
    async afterLoadSnapshot(args) {
      const shellKit = providedKitVersion(
        args.host.options.shared as unknown as Record<string, SharedInfo[]>,
        args.host.options.name,
      );
      const remoteKit = remoteKitVersion(args.remoteSnapshot);
      if (!shellKit || !remoteKit) return args;
      const remote = args.moduleInfo.name;
      const verdict = compareKitVersions(shellKit, remoteKit);
      if (verdict === 'incompatible')
        throw new KitVersionMismatchError(remote, remoteKit, shellKit);
      if (verdict === 'newer-minor') {
        warn(
          `${remote} was built against @campus/kit ${remoteKit}, newer than the shell's ${shellKit}: ` +
            `it runs on the shell's kit, so anything added after ${shellKit} is missing until the ` +
            'shell ships the newer kit.',
        );
      }
      return args;
    },
  };
}
