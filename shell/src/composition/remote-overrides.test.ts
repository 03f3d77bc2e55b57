import type { RuntimeConfig } from '../app/runtime-config';
import {
  clearRemoteOverride,
  OVERRIDES_STORAGE_KEY,
  resolveRemoteOverrides,
  withoutOverrideParam,
} from './remote-overrides';

const config: RuntimeConfig = {
  apiUrl: 'https://api.campus.test',
  remotes: {
    mf_feed: 'https://feed.campus.test/mf-manifest.json',
    mf_profile: 'https://profile.campus.test/mf-manifest.json',
    mf_notifications: 'https://notifications.campus.test/mf-manifest.json',
    mf_admin: 'https://admin.campus.test/mf-manifest.json',
  },
  overrideOrigins: ['https://preview.campus.test', 'http://localhost:3101/'],
};

const preview = 'https://preview.campus.test/feed-42/mf-manifest.json';

function resolve(search: string, options: { config?: RuntimeConfig } = {}) {
  return resolveRemoteOverrides(options.config ?? config, {
    search,
    storage: window.localStorage,
  });
}

beforeEach(() => {
  window.localStorage.clear();
  jest.spyOn(console, 'warn').mockImplementation(() => undefined);
});

describe('resolveRemoteOverrides', () => {
  it('when nothing is asked or stored, then every remote comes from the runtime config', () => {
    expect(resolve('')).toEqual({ remotes: config.remotes, active: [], refused: [] });
  });

  it('when an allowed origin is asked for, then that remote comes from it, now and after a reload', () => {
    const first = resolve(`?mf-override=mf_feed=${encodeURIComponent(preview)}`);
    expect(first.remotes).toEqual({ ...config.remotes, mf_feed: preview });
    expect(first.active).toEqual([{ remote: 'mf_feed', url: preview }]);
    expect(resolve('').remotes.mf_feed).toBe(preview);
  });

  it('when several remotes are asked for, then each is overridden (origins compared normalised)', () => {
    const local = 'http://localhost:3101/mf-manifest.json';
    const { active } = resolve(`?mf-override=mf_feed=${preview}&mf-override=mf_admin=${local}`);
    expect(active).toEqual([
      { remote: 'mf_feed', url: preview },
      { remote: 'mf_admin', url: local },
    ]);
  });

  it('when the origin is not listed, then it is refused with a warning and nothing is stored', () => {
    const evil = 'https://evil.example/mf-manifest.json';
    const result = resolve(`?mf-override=mf_feed=${evil}`);
    expect(result.remotes).toEqual(config.remotes);
    expect(result.refused).toEqual([
      {
        request: `mf_feed=${evil}`,
        reason: "https://evil.example is not in this shell's overrideOrigins",
      },
    ]);
    expect(console.warn).toHaveBeenCalledWith(expect.stringContaining('Remote override refused'));
    expect(window.localStorage.getItem(OVERRIDES_STORAGE_KEY)).toBeNull();
  });

  it('when the runtime config lists no origins, then every override is refused', () => {
    const result = resolve(`?mf-override=mf_feed=${preview}`, {
      config: { ...config, overrideOrigins: undefined },
    });
    expect(result.active).toEqual([]);
    expect(result.refused).toHaveLength(1);
  });

  it('when the remote is unknown or the URL is not http(s), then it is refused', () => {
    const { refused } = resolve(
      '?mf-override=mf_search=https://preview.campus.test/x.json&mf-override=mf_feed=javascript:alert(1)',
    );
    expect(refused.map((item) => item.reason)).toEqual([
      expect.stringContaining('the remote one of mf_feed, mf_profile'),
      'it is not an http(s) URL',
    ]);
  });

  it('when a stored override’s origin is taken off the list, then it stops at the next load', () => {
    resolve(`?mf-override=mf_feed=${preview}`);
    const later = resolve('', { config: { ...config, overrideOrigins: [] } });
    expect(later.remotes.mf_feed).toBe(config.remotes.mf_feed);
    expect(later.refused[0]?.reason).toMatch(/not in this shell's overrideOrigins; it was removed/);
    expect(window.localStorage.getItem(OVERRIDES_STORAGE_KEY)).toBeNull();
  });

  it('when an override is cleared, then that remote comes from the runtime config again', () => {
    resolve(`?mf-override=mf_feed=${preview}&mf-override=mf_profile=${preview}`);
    clearRemoteOverride(window.localStorage, 'mf_feed');
    const { active } = resolve('');
    expect(active).toEqual([{ remote: 'mf_profile', url: preview }]);
  });
});

describe('withoutOverrideParam', () => {
  it('drops only the override parameter', () => {
    expect(
      withoutOverrideParam(`https://campus.test/profile/3?tab=x&mf-override=mf_feed=${preview}`),
    ).toBe('https://campus.test/profile/3?tab=x');
  });
});
