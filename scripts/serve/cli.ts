// Serves the five production builds (run `npm run build` in each app first), each on its own
// port, with the shell's env.json pointing at them and at the API:
//   npm run serve -w scripts   (ports 3000-3004, API at http://localhost:4000)
//   API_URL=... SHELL_PORT=... MF_FEED_PORT=... npm run serve -w scripts
import { serveApps } from './serve-apps';

const port = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
async function main() {
  const apps = await serveApps({
    apiUrl: process.env.API_URL ?? 'http://localhost:4000',
    host: process.env.HOST ?? 'localhost',
    ports: {
      shell: port('SHELL_PORT', 3000),
      mf_feed: port('MF_FEED_PORT', 3001),
      mf_profile: port('MF_PROFILE_PORT', 3002),
      mf_notifications: port('MF_NOTIFICATIONS_PORT', 3003),
      mf_admin: port('MF_ADMIN_PORT', 3004),
    },
  });
  console.log(`Campus is being served at ${apps.shellUrl}`);
  const stop = () => void apps.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

void main();
