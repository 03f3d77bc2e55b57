import http from 'node:http';
import Koa from 'koa';
import { singleFlight, trackInFlight } from './in-flight';

describe('trackInFlight', () => {
  test('when the client hangs up mid-request, then idle() waits for the handler to finish', async () => {
    const inFlight = trackInFlight();
    let finishHandler!: () => void;
    const handlerDone = new Promise<void>((resolve) => (finishHandler = resolve));
    let handled = false;
    let entered!: () => void;
    const handlerEntered = new Promise<void>((resolve) => (entered = resolve));
    const app = new Koa();
    app.use(inFlight.middleware);
    app.use(async (ctx) => {
      entered();
      await handlerDone;
      handled = true;
      ctx.body = 'ok';
    });
    const server = app.listen(0);
    try {
      const { port } = server.address() as { port: number };
      const req = http.get({ port, path: '/' });
      req.on('error', () => {});
      await handlerEntered;
      expect(inFlight.count).toBe(1);
      const closed = new Promise((resolve) => req.once('close', resolve));
      req.destroy(); // the client goes away; the handler does not stop
      await closed;
      let idle = false;
      const waiting = inFlight.idle().then(() => (idle = true));
      // Whatever was ready to run has run: idle() is still waiting for the handler.
      await new Promise((resolve) => setImmediate(resolve));
      expect(idle).toBe(false);
      finishHandler();
      await waiting;
      expect(handled).toBe(true);
      expect(inFlight.count).toBe(0);
      await expect(inFlight.idle()).resolves.toBeUndefined();
    } finally {
      server.close();
    }
  });
});

describe('trackInFlight: drain', () => {
  test('when draining starts during a keep-alive request, then its response and later ones close the connection', async () => {
    const inFlight = trackInFlight();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const handlerEntered = new Promise<void>((resolve) => (entered = resolve));
    const app = new Koa();
    app.use(inFlight.middleware);
    app.use(async (ctx) => {
      if (ctx.path === '/slow') {
        entered();
        await gate;
      }
      ctx.body = 'ok';
    });
    const server = app.listen(0);
    const agent = new http.Agent({ keepAlive: true });
    const get = (path: string) =>
      new Promise<http.IncomingMessage>((resolve, reject) => {
        const { port } = server.address() as { port: number };
        http
          .get({ port, path, agent }, (res) => res.resume().once('end', () => resolve(res)))
          .once('error', reject);
      });
    try {
      const before = await get('/');
      expect(before.headers.connection).toBe('keep-alive');
      const slow = get('/slow');
      await handlerEntered;
      inFlight.drain();
      release();
      expect((await slow).headers.connection).toBe('close');
      expect((await get('/')).headers.connection).toBe('close');
    } finally {
      agent.destroy();
      server.close();
    }
  });
});

describe('singleFlight', () => {
  test('when calls for a key overlap, then one computation answers them all; a later call computes again', async () => {
    const once = singleFlight<string, number>();
    let computed = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const compute = async () => {
      computed++;
      await gate;
      return computed;
    };
    const calls = [once('a', compute), once('a', compute), once('a', compute)];
    const other = once('b', async () => 99);
    release();
    expect(await Promise.all(calls)).toEqual([1, 1, 1]);
    expect(await other).toBe(99);
    expect(computed).toBe(1);
    expect(await once('a', compute)).toBe(2);
  });

  test('when the shared computation fails, then every caller gets the error and the next call retries', async () => {
    const once = singleFlight<string, number>();
    const failing = async (): Promise<number> => {
      throw new Error('down');
    };
    const results = await Promise.allSettled([once('k', failing), once('k', failing)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(await once('k', async () => 7)).toBe(7);
  });
});
