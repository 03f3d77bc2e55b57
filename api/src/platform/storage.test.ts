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

  test('when the URL is anyone else’s, then it is kept as given', () => {
    for (const url of [
      `https://cdn.example/uploads/${name}`,
      'http://localhost:4000/uploads/../x',
      'https://x.org/a.png',
    ]) {
      expect(toStoredFileUrl(url, 'http://localhost:4000')).toBe(url);
      expect(toPublicFileUrl(url, 'http://localhost:4000')).toBe(url);
    }
  });
});
