/**
 * The image pool's own accounting, which the metrics show (campus_media_*): pictures done,
 * refused by the worker and failed, the workers busy and idle, the time spent. Real worker
 * processes; the app's metrics endpoint serving these counts is test/observability.test.ts.
 */
import sharp from 'sharp';
import { createImagePool, type ImagePool } from './image-pool';
import { NOT_AN_IMAGE } from './process-image';

let pool: ImagePool;
beforeEach(() => {
  pool = createImagePool(1);
});
afterEach(() => pool.close());

const png = () =>
  sharp({ create: { width: 64, height: 48, channels: 3, background: '#2a7' } })
    .png()
    .toBuffer();

describe('image pool counts', () => {
  test('when nothing was sent, then no worker runs and nothing is counted', () => {
    expect(pool.counts()).toEqual({
      waiting: 0,
      workers: 0,
      busy: 0,
      done: 0,
      refused: 0,
      failed: 0,
      seconds: 0,
    });
  });

  test('when two pictures and a non-picture go through one worker, then two are done and one refused, one after another', async () => {
    const bytes = await png();
    const tasks = [bytes, Buffer.from('<html>not a picture</html>'), bytes].map((b) =>
      pool.process({ source: { bytes: b }, maxPixels: 40_000_000 }),
    );
    // One worker: the first is being processed, the other two wait their turn.
    expect(pool.counts()).toMatchObject({ waiting: 2, workers: 1, busy: 1 });
    const results = await Promise.all(tasks);
    expect(results.map((r) => (r.ok ? 'ok' : r.message))).toEqual(['ok', NOT_AN_IMAGE, 'ok']);
    const counts = pool.counts();
    expect(counts).toMatchObject({ waiting: 0, workers: 1, busy: 0, done: 2, refused: 1 });
    expect(counts.failed).toBe(0);
    expect(counts.seconds).toBeGreaterThan(0);
  });

  test('when the worker dies with a picture, then that picture fails and is counted failed', async () => {
    const first = pool.process({ source: { bytes: await png() }, maxPixels: 40_000_000 });
    await first;
    // A picture whose file is gone: the worker's read throws, it exits, the pool fails the image.
    const lost = pool.process({ source: { path: '/nonexistent/upload' }, maxPixels: 40_000_000 });
    await expect(lost).rejects.toThrow(/The image worker exited/);
    expect(pool.counts()).toMatchObject({ done: 1, failed: 1, busy: 0, workers: 0 });
  });
});
