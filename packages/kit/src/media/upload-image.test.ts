import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '@campus/contracts';
import { ApiError, configureApi, storeAuth, clearStoredAuth } from '@campus/kit/api';
import { BEN, makeImage, uploadedAs } from '@campus/kit/testing';
import { uploadImage, uploadFailureText } from './upload-image';

/**
 * A real HTTP server on a random port stands in for the API: jsdom's XMLHttpRequest really sends
 * the multipart request (with its CORS preflight, as a browser does for another origin).
 */
interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

let server: Server;
let received: Received[] = [];
let answer: (request: Received, response: ServerResponse) => void;

const PAGE_ORIGIN = 'http://localhost';

beforeAll(async () => {
  server = createServer((request, response) => {
    response.setHeader('Access-Control-Allow-Origin', PAGE_ORIGIN);
    response.setHeader('Access-Control-Allow-Credentials', 'true');
    if (request.method === 'OPTIONS') {
      response.setHeader('Access-Control-Allow-Methods', 'POST');
      response.setHeader('Access-Control-Allow-Headers', `Accept, ${CSRF_HEADER}`);
      response.end();
      return;
    }
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const entry = {
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('latin1'),
      };
      received.push(entry);
      answer(entry, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  configureApi({ baseUrl: `http://127.0.0.1:${port}` });
});

afterAll(
  () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
);

beforeEach(() => {
  received = [];
  storeAuth({ user: BEN });
});
afterEach(() => clearStoredAuth());

const json = (response: ServerResponse, status: number, body: unknown) => {
  response.statusCode = status;
  response.setHeader('Content-Type', 'application/json');
  response.end(JSON.stringify(body));
};

describe('uploadImage', () => {
  it('when an image is sent, then it goes as multipart `image` to POST /api/media with the CSRF header, and resolves with the stored image', async () => {
    const stored = uploadedAs(makeImage({ id: 'abc' }));
    answer = (_request, response) => json(response, 201, stored);
    const file = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'lab.png', {
      type: 'image/png',
    });
    // (jsdom reports no upload progress: the component tests and the e2e spec cover it.)
    await expect(uploadImage(file)).resolves.toEqual(stored);

    const [post] = received;
    expect(post).toMatchObject({ method: 'POST', url: '/api/media' });
    expect(post!.headers[CSRF_HEADER.toLowerCase()]).toBe(CSRF_HEADER_VALUE);
    expect(post!.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(post!.body).toContain('name="image"; filename="lab.png"');
    expect(post!.body).toContain('Content-Type: image/png');
  });

  it("when the API refuses the file, then it rejects with an ApiError carrying the API's message", async () => {
    answer = (_request, response) =>
      json(response, 415, { message: 'The file is not a JPEG, PNG, WebP or GIF image' });
    const file = new File(['<svg/>'], 'fake.png', { type: 'image/png' });

    const failure = await uploadImage(file).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).status).toBe(415);
    expect(uploadFailureText(failure)).toBe('The file is not a JPEG, PNG, WebP or GIF image');
  });

  it('when the access cookie ran out (401), then the session is renewed and the file sent once more', async () => {
    let uploads = 0;
    answer = (request, response) => {
      if (request.url === '/api/auth/refresh') return json(response, 200, { ok: true });
      uploads += 1;
      if (uploads === 1) return json(response, 401, { message: 'Token expired' });
      return json(response, 201, uploadedAs(makeImage({ id: 'again' })));
    };
    // renewSession() uses fetch, which jsdom lacks: the test's fetch reaches the same server.
    const realFetch = globalThis.fetch;
    globalThis.fetch = ((url: string, init?: RequestInit) =>
      new Promise((resolve, reject) => {
        const request = new XMLHttpRequest();
        request.open(init?.method ?? 'GET', url);
        request.withCredentials = true;
        // Only what the kit's api client reads from a Response (jsdom has no Response).
        request.onload = () =>
          resolve({
            ok: request.status >= 200 && request.status < 300,
            status: request.status,
            text: () => Promise.resolve(request.responseText),
          } as Response);
        request.onerror = () => reject(new TypeError('network'));
        request.send();
      })) as typeof fetch;
    try {
      const file = new File([new Uint8Array(4)], 'lab.png', { type: 'image/png' });
      await expect(uploadImage(file)).resolves.toMatchObject({ id: 'again' });
    } finally {
      globalThis.fetch = realFetch;
    }
    expect(received.map((request) => request.url)).toEqual([
      '/api/media',
      '/api/auth/refresh',
      '/api/media',
    ]);
  });

  it('when the upload is cancelled, then it rejects as aborted', async () => {
    answer = () => undefined; // never answers
    const controller = new AbortController();
    const file = new File([new Uint8Array(4)], 'lab.png', { type: 'image/png' });
    const sending = uploadImage(file, { signal: controller.signal });
    controller.abort();
    await expect(sending).rejects.toMatchObject({ name: 'AbortError' });
  });
});
