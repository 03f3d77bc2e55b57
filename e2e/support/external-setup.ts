// Global setup for a Campus that is already running (docker compose, a staging deployment):
// nothing is built or started here. E2E_BASE_URL names the shell; the API and the remotes are read
// from the shell's own /env.json (E2E_API_URL overrides the API). With E2E_MAILPIT_URL, e-mails
// caught by Mailpit are copied into a local outbox folder in the format the API writes without
// SMTP, so the specs that follow a verification link work unchanged.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { E2E_ENV_KEY, type E2eEnvironment } from './environment';

/** Set for the specs when the suite runs against services it did not start. */
export const E2E_EXTERNAL_KEY = 'CAMPUS_E2E_EXTERNAL';

interface ShellEnv {
  apiUrl: string;
  remotes: E2eEnvironment['remotes'];
}

async function waitFor<T>(what: string, read: () => Promise<T>, timeoutMs = 180_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      return await read();
    } catch (error) {
      lastError = error;
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  }
  throw new Error(`${what} did not answer within ${timeoutMs / 1000} s: ${String(lastError)}`);
}

async function json<T>(url: string): Promise<T> {
  const response = await fetch(url, { cache: 'no-store' });
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return (await response.json()) as T;
}

interface MailpitList {
  messages: { ID: string; Created: string; Subject: string; To: { Address: string }[] }[];
}

/** Copies new Mailpit messages into `<outbox>/<created>-<id>.json` ({ to, subject, links }). */
function mirrorMailpit(mailpitUrl: string, outbox: string): () => void {
  const copied = new Set<string>();
  let busy = false;
  const poll = async () => {
    if (busy) return;
    busy = true;
    try {
      const list = await json<MailpitList>(`${mailpitUrl}/api/v1/messages?limit=100`);
      for (const message of list.messages) {
        if (copied.has(message.ID)) continue;
        const body = await json<{ Text: string }>(`${mailpitUrl}/api/v1/message/${message.ID}`);
        const verification = /https?:\/\/\S+\/verify\/[\w.~-]+/.exec(body.Text)?.[0];
        const reset = /https?:\/\/\S+\/reset-password\/[\w.~-]+/.exec(body.Text)?.[0];
        const mail = {
          to: message.To.map((to) => to.Address).join(', '),
          subject: message.Subject,
          links: { ...(verification && { verification }), ...(reset && { reset }) },
          createdAt: message.Created,
        };
        const name = `${message.Created.replace(/[:.]/g, '-')}-${message.ID}.json`;
        await writeFile(path.join(outbox, name), JSON.stringify(mail));
        copied.add(message.ID);
      }
    } catch {
      // Mailpit restarting or not reachable yet: the next poll tries again
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(() => void poll(), 500);
  return () => clearInterval(timer);
}

export default async function externalSetup() {
  const shellUrl = process.env.E2E_BASE_URL?.replace(/\/+$/, '');
  if (!shellUrl)
    throw new Error('Set E2E_BASE_URL to the running shell (e.g. http://localhost:3000)');
  const shellEnv = await waitFor('the shell', () => json<ShellEnv>(`${shellUrl}/env.json`));
  const apiUrl = (process.env.E2E_API_URL ?? shellEnv.apiUrl).replace(/\/+$/, '');
  await waitFor('the API', () => json(`${apiUrl}/api/settings`));

  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'campus-e2e-external-'));
  const outbox = path.join(dataDir, 'outbox');
  await mkdir(outbox, { recursive: true });
  const mailpitUrl = process.env.E2E_MAILPIT_URL?.replace(/\/+$/, '');
  const stopMirror = mailpitUrl ? mirrorMailpit(mailpitUrl, outbox) : () => undefined;

  const environment: E2eEnvironment = { shellUrl, apiUrl, dataDir, remotes: shellEnv.remotes };
  process.env[E2E_ENV_KEY] = JSON.stringify(environment);
  process.env[E2E_EXTERNAL_KEY] = '1';
  return async () => {
    stopMirror();
    await rm(dataDir, { recursive: true, force: true });
  };
}
