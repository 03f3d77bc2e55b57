import { parseRuntimeConfig } from './runtime-config';

const remotes = {
  mf_feed: 'http://localhost:3001/mf-manifest.json',
  mf_profile: 'http://localhost:3002/mf-manifest.json',
  mf_notifications: 'http://localhost:3003/mf-manifest.json',
  mf_admin: 'http://localhost:3004/mf-manifest.json',
};

const accepted: Array<[value: unknown, parsed: unknown]> = [
  [
    { apiUrl: 'http://localhost:4000', remotes },
    { apiUrl: 'http://localhost:4000', remotes },
  ],
  [
    { apiUrl: '', remotes, overrideOrigins: [] },
    { apiUrl: '', remotes, overrideOrigins: [] },
  ],
  [
    { apiUrl: 'https://api.example', remotes, overrideOrigins: ['https://preview.example'] },
    { apiUrl: 'https://api.example', remotes, overrideOrigins: ['https://preview.example'] },
  ],
  // What env.json holds beyond its fields is left out, in it and in its remotes.
  [
    { apiUrl: 'http://localhost:4000', remotes: { ...remotes, mf_jobs: 'x' }, theme: 'dark' },
    { apiUrl: 'http://localhost:4000', remotes },
  ],
];
const refused: Array<[value: unknown, message: string]> = [
  [null, 'env.json: must be an object'],
  ['env', 'env.json: must be an object'],
  [{ remotes }, 'env.json: apiUrl must be a string'],
  [{ apiUrl: 4000, remotes }, 'env.json: apiUrl must be a string'],
  [{ apiUrl: 'http://localhost:4000' }, 'env.json: remotes must be an object'],
  [
    { apiUrl: 'http://localhost:4000', remotes: { ...remotes, mf_admin: '' } },
    'env.json: remotes.mf_admin must be a URL',
  ],
  [
    { apiUrl: 'http://localhost:4000', remotes: { mf_feed: remotes.mf_feed } },
    'env.json: remotes.mf_profile must be a URL',
  ],
  [
    { apiUrl: 'http://localhost:4000', remotes, overrideOrigins: 'https://preview.example' },
    'env.json: overrideOrigins must be a list of origins',
  ],
  [
    { apiUrl: 'http://localhost:4000', remotes, overrideOrigins: [42] },
    'env.json: overrideOrigins must be a list of origins',
  ],
];

describe('parseRuntimeConfig (env.json, without zod)', () => {
  it.each(accepted.map(([value, parsed]) => [JSON.stringify(value), value, parsed]))(
    'when env.json is %s, then it is accepted with its known fields',
    (_label, value, parsed) => {
      expect(parseRuntimeConfig(value)).toEqual(parsed);
    },
  );

  it.each(refused.map(([value, message]) => [JSON.stringify(value), value, message]))(
    'when env.json is %s, then it is refused and says why',
    (_label, value, message) => {
      expect(() => parseRuntimeConfig(value)).toThrow(new Error(message));
    },
  );
});
