import Bowser from 'bowser';

/** At most this long: a User-Agent is the client's to write. */
const MAX_LABEL = 80;

/**
 * A device's label in the Sessions list, from its User-Agent: 'Chrome on Linux', 'Safari on iOS',
 * or the client's own name for a tool ('curl'). Never the raw header: it is the client's to
 * write, so only what the parser recognises, or its first product token, is kept.
 */
export function deviceLabel(userAgent: string | undefined): string {
  const ua = (userAgent ?? '').trim();
  if (!ua) return 'Unknown device';
  const parsed = Bowser.parse(ua);
  const browser = parsed.browser.name;
  const os = parsed.os.name;
  if (browser && os) return clean(`${browser} on ${os}`);
  if (browser) return clean(browser);
  const product = /^[A-Za-z][A-Za-z0-9._-]{0,39}/.exec(ua)?.[0];
  return product ? clean(product) : 'Unknown device';
}

function clean(label: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what is removed
  return label.replace(/[\u0000-\u001f\u007f]/g, '').slice(0, MAX_LABEL);
}
