import { AVATAR_URL_MESSAGE } from '@campus/contracts';
import { toPublicFileUrl, toStoredFileUrl } from './storage';

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
