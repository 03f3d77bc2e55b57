import { newPasswordSchema } from '@campus/contracts';

interface Terminal {
  input: NodeJS.ReadStream;
  output: NodeJS.WritableStream;
}

/** Reads one line on a terminal without echoing it (raw mode, so nothing is shown). */
function promptHidden(question: string, { input, output }: Terminal): Promise<string> {
  return new Promise((resolve, reject) => {
    let value = '';
    const finish = () => {
      input.setRawMode(false);
      input.pause();
      input.off('data', onData);
      output.write('\n');
    };
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === '\r' || char === '\n') {
          finish();
          resolve(value);
          return;
        }
        if (char === '\u0003' || char === '\u0004') {
          finish();
          reject(new Error('cancelled'));
          return;
        }
        if (char === '\u007f' || char === '\b') value = value.slice(0, -1);
        else value += char;
      }
    };
    output.write(question);
    input.setEncoding('utf8');
    input.setRawMode(true);
    input.resume();
    input.on('data', onData);
  });
}

/** The first line of everything piped in (`printf '%s' "$PASSWORD" | ...`). */
async function readFirstLine(input: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of input) text += chunk.toString();
  return text.split(/\r?\n/)[0] ?? '';
}

/**
 * The administrator's new password, never from the command line (it would be in the shell
 * history and in `ps` for every user of the machine): `ADMIN_PASSWORD` when set, else typed twice
 * on a terminal, else the first line of stdin. Checked with the registration rule (8–128).
 */
export async function readAdminPassword(
  env: Record<string, string | undefined>,
  input: NodeJS.ReadStream,
  output: NodeJS.WritableStream,
): Promise<string> {
  let password: string;
  if (env.ADMIN_PASSWORD) {
    password = env.ADMIN_PASSWORD;
  } else if (input.isTTY) {
    password = await promptHidden('New administrator password: ', { input, output });
    const again = await promptHidden('Repeat the password: ', { input, output });
    if (again !== password) throw new Error('The two passwords differ');
  } else {
    password = await readFirstLine(input);
  }
  const checked = newPasswordSchema.safeParse(password);
  if (!checked.success) throw new Error(checked.error.issues[0]?.message ?? 'Invalid password');
  return checked.data;
}
