import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EnvFileError, withEnvFile } from './env-file';

describe('withEnvFile', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'campus-env-file-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('when API_ENV_FILE is unset, then the environment is used as it is', () => {
    const env = { JWT_SECRET: 'from the environment' };
    expect(withEnvFile(env)).toBe(env);
  });

  test('when API_ENV_FILE names a file, then its variables are added and win over the environment', () => {
    const file = path.join(dir, 'api.env');
    fs.writeFileSync(
      file,
      '# rotated 2026-12-01\nJWT_SECRET=new key\nJWT_PREVIOUS_SECRETS="old key"\nAPI_ENV_FILE=/elsewhere\n',
    );
    expect(withEnvFile({ API_ENV_FILE: file, JWT_SECRET: 'old key', PORT: '4100' })).toEqual({
      API_ENV_FILE: file,
      JWT_SECRET: 'new key',
      JWT_PREVIOUS_SECRETS: 'old key',
      PORT: '4100',
    });
  });

  test('when the file changes, then the next read has the change and no variable it dropped', () => {
    const file = path.join(dir, 'api.env');
    fs.writeFileSync(file, 'JWT_SECRET=new\nJWT_PREVIOUS_SECRETS=old\n');
    expect(withEnvFile({ API_ENV_FILE: file })).toHaveProperty('JWT_PREVIOUS_SECRETS', 'old');
    fs.writeFileSync(file, 'JWT_SECRET=new\n');
    expect(withEnvFile({ API_ENV_FILE: file })).not.toHaveProperty('JWT_PREVIOUS_SECRETS');
  });

  test('when the file cannot be read, then the error names the variable and the file', () => {
    const missing = path.join(dir, 'missing.env');
    expect(() => withEnvFile({ API_ENV_FILE: missing })).toThrow(EnvFileError);
    expect(() => withEnvFile({ API_ENV_FILE: missing })).toThrow(
      `API_ENV_FILE: cannot read ${missing} (ENOENT)`,
    );
  });
});
