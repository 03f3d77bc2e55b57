import { AVATAR_URL_MESSAGE } from '@campus/contracts';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createUploadStorage, toPublicFileUrl, toStoredFileUrl } from './storage';

const name = '0123456789abcdef0123456789abcdef.webp';

describe('upload URLs', () => {
  test('when our own upload URL is stored, then only its path is kept, and it is made absolute again on the way out', () => {
    expect(toStoredFileUrl(`http://localhost:4000/uploads/${name}`, 'http://localhost:4000')).toBe(
      `/uploads/${name}`,
    );
    expect(toPublicFileUrl(`/uploads/${name}`, 'https://api.campus.edu')).toBe(
      `https://api.campus.edu/uploads/${name}`,
    );
  });

  test('when the URL is our own upload path, then it is kept', () => {
    expect(toStoredFileUrl(`/uploads/${name}`, 'http://localhost:4000')).toBe(`/uploads/${name}`);
  });

  test('when the URL is anyone else’s, then storing it is a 400, and an old one stored before is shown as it is', () => {
    for (const url of [
      `https://cdn.example/uploads/${name}`,
      `http://localhost:4001/uploads/${name}`,
      'http://localhost:4000/uploads/../x',
      'https://x.org/a.png',
    ]) {
      expect(() => toStoredFileUrl(url, 'http://localhost:4000')).toThrow(
        expect.objectContaining({ status: 400, message: AVATAR_URL_MESSAGE }),
      );
      expect(toPublicFileUrl(url, 'http://localhost:4000')).toBe(url);
    }
  });
});

describe('createUploadStorage', () => {
  test('when a file is saved, then it is there; once removed it is gone, and paths that are not uploads are never touched', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'campus-storage-'));
    try {
      const storage = createUploadStorage(dir, 'http://api.test');
      const saved = await storage.save(Buffer.from('webp'), 'webp');
      expect(await storage.has(saved.path)).toBe(true);
      expect(await storage.has(`/uploads/${name}`)).toBe(false);
      await fs.writeFile(path.join(dir, 'keep.txt'), 'not an upload');
      for (const other of ['/uploads/keep.txt', '/uploads/../keep.txt', 'keep.txt', '']) {
        expect(await storage.has(other)).toBe(false);
        await storage.remove(other);
      }
      await storage.remove(saved.path);
      await storage.remove(saved.path); // twice: nothing left to remove is not an error
      expect(await storage.has(saved.path)).toBe(false);
      expect(await fs.readdir(dir)).toEqual(['keep.txt']);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
