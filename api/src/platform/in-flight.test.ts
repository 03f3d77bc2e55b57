import http from 'node:http';
import Koa from 'koa';
import { trackInFlight } from './in-flight';

describe('trackInFlight', () => {
  test('when the client hangs up mid-request, then idle() waits for the handler to finish', async () => {
    const inFlight = trackInFlight();
    let finishHandler!: () => void;
    const handlerDone = new Promise<void>((resolve) => (finishHandler = resolve));
    let handled = false;
    const app = new Koa();
    app.use(inFlight.middleware);
    app.use(async (ctx) => {
      await handlerDone;
      handled = true;
      ctx.body = 'ok';
    });
    const server = app.listen(0);
    try {
      const { port } = server.address() as { port: number };
      const req = http.get({ port, path: '/' });
      req.on('error', () => {});
      await new Promise((r) => setTimeout(r, 50));
      expect(inFlight.count).toBe(1);
      req.destroy(); // the client goes away; the handler does not stop
      await new Promise((r) => setTimeout(r, 50));
      let idle = false;
      const waiting = inFlight.idle().then(() => (idle = true));
      await new Promise((r) => setTimeout(r, 20));
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
