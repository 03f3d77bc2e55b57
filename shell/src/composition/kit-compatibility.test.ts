import {
  compareKitVersions,
  isKitVersionMismatch,
  kitCompatibilityPlugin,
  KitVersionMismatchError,
} from './kit-compatibility';

describe('compareKitVersions (shell kit, remote kit)', () => {
  it.each([
    ['1.4.0', '1.4.0', 'compatible'],
    ['1.4.0', '1.2.7', 'compatible'],
    ['1.4.2', '1.4.1', 'compatible'],
    ['1.4.0', '1.5.0', 'newer-minor'],
    ['1.4.0', '1.4.1', 'newer-minor'],
    ['1.4.0', '2.0.0', 'incompatible'],
    ['2.0.0', '1.9.0', 'incompatible'],
    ['1.4.0', 'next', 'incompatible'],
  ] as const)('shell %s, remote %s: %s', (shell, remote, verdict) => {
    expect(compareKitVersions(shell, remote)).toBe(verdict);
  });
});

/** What the runtime hands the hook once a remote's manifest has been read. */
function snapshotArgs(remoteKit: string) {
  return {
    host: {
      options: {
        name: 'shell',
        shared: {
          react: [{ version: '19.3.1', from: 'shell' }],
          '@campus/kit/session': [
            { version: '1.4.0', from: 'shell' },
            { version: '1.9.0', from: 'mf_profile' },
          ],
        },
      },
    },
    moduleInfo: { name: 'mf_feed', entry: 'http://feed.test/mf-manifest.json' },
    remoteSnapshot: {
      shared: [
        { sharedName: 'react', version: '19.3.1' },
        { sharedName: '@campus/kit/api', version: remoteKit },
      ],
    },
    options: {},
  };
}

type Hook = (args: unknown) => Promise<unknown>;

describe('kitCompatibilityPlugin', () => {
  it('lets a remote built against the same or an older minor through silently', async () => {
    const warn = jest.fn();
    const hook = kitCompatibilityPlugin(warn).afterLoadSnapshot as unknown as Hook;
    const args = snapshotArgs('1.2.0');
    await expect(hook(args)).resolves.toBe(args);
    expect(warn).not.toHaveBeenCalled();
  });

  it('lets a remote built against a newer minor through, with a warning that says what is missing', async () => {
    const warn = jest.fn();
    const hook = kitCompatibilityPlugin(warn).afterLoadSnapshot as unknown as Hook;
    await hook(snapshotArgs('1.5.0'));
    expect(warn).toHaveBeenCalledWith(
      expect.stringContaining(
        "mf_feed was built against @campus/kit 1.5.0, newer than the shell's 1.4.0",
      ),
    );
  });

  it('refuses a remote built against another major before its code is fetched', async () => {
    const hook = kitCompatibilityPlugin(jest.fn()).afterLoadSnapshot as unknown as Hook;
    const refusal = await hook(snapshotArgs('2.0.0')).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(KitVersionMismatchError);
    expect(isKitVersionMismatch(refusal)).toBe(true);
    expect(refusal).toMatchObject({ remote: 'mf_feed', remoteKit: '2.0.0', shellKit: '1.4.0' });
  });
});
