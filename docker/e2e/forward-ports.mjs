// Inside the e2e container, makes the composed services answer on localhost exactly as they do on
// a QA machine's browser (http://localhost:3000, remotes on 3001-3004, the API on 4000): the
// shell's env.json, the API's CORS allow-list and the e-mailed links all name localhost.
// FORWARD_PORTS="3000=shell:3000,4000=api:4000,..."
import net from 'node:net';

const rules = (process.env.FORWARD_PORTS ?? '')
  .split(',')
  .map((rule) => rule.trim())
  .filter(Boolean)
  .map((rule) => {
    const [listen, target] = rule.split('=');
    const [host, port] = (target ?? '').split(':');
    if (!listen || !host || !port) throw new Error(`FORWARD_PORTS: cannot read "${rule}"`);
    return { listen: Number(listen), host, port: Number(port) };
  });

for (const { listen, host, port } of rules) {
  net
    .createServer((client) => {
      const upstream = net.connect(port, host);
      client.pipe(upstream).pipe(client);
      const end = () => {
        client.destroy();
        upstream.destroy();
      };
      client.on('error', end);
      upstream.on('error', end);
    })
    .listen(listen, '127.0.0.1', () => console.log(`localhost:${listen} -> ${host}:${port}`));
}
