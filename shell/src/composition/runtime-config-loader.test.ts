import { parseRuntimeConfig } from '../app/runtime-config';
import { checkRuntimeConfig } from './runtime-config-loader';

const remotes = {
  mf_feed: 'http://localhost:3001/mf-manifest.json',
  mf_profile: 'http://localhost:3002/mf-manifest.json',
  mf_notifications: 'http://localhost:3003/mf-manifest.json',
  mf_admin: 'http://localhost:3004/mf-manifest.json',
};

const accepted: unknown[] = [
  { apiUrl: 'http://localhost:4000', remotes },
  { apiUrl: '', remotes, overrideOrigins: [] },
  { apiUrl: 'https://api.example', remotes, overrideOrigins: ['https://preview.example'] },
];
const refused: unknown[] = [
  null,
  'env',
  { remotes },
  { apiUrl: 4000, remotes },
  { apiUrl: 'http://localhost:4000' },
  { apiUrl: 'http://localhost:4000', remotes: { ...remotes, mf_admin: '' } },
  { apiUrl: 'http://localhost:4000', remotes: { mf_feed: remotes.mf_feed } },
  { apiUrl: 'http://localhost:4000', remotes, overrideOrigins: 'https://preview.example' },
  { apiUrl: 'http://localhost:4000', remotes, overrideOrigins: [42] },
];

describe('checkRuntimeConfig (env.json without zod)', () => {
  it.each(accepted.map((value) => [JSON.stringify(value), value]))(
    'accepts what the schema accepts: %s',
    (_label, value) => {
      expect(checkRuntimeConfig(value)).toEqual(parseRuntimeConfig(value));
    },
  );

  it.each(refused.map((value) => [JSON.stringify(value), value]))(
    'refuses what the schema refuses: %s',
    (_label, value) => {
      expect(() => parseRuntimeConfig(value)).toThrow();
      expect(() => checkRuntimeConfig(value)).toThrow(/^env\.json: /);
    },
  );
});
