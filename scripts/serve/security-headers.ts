// The security headers of every app's pages, computed from the composition's run-time
// configuration (the shell's env.json). Used by every Node server that serves the builds
// (`npm start` and the e2e suite, through serve-apps.ts); the nginx images compute the same policy
// from their environment when the container starts (docker/nginx/40-security-headers.sh), and
// scripts/compose/compose.test.ts checks that both give the same header for the composed services.

/** What the policy depends on: the shell's env.json (shell/src/app/runtime-config.ts). */
export interface CompositionConfig {
  apiUrl: string;
  remotes: Record<string, string>;
  /** Origins a feature team may load a preview build of a remote from. */
  overrideOrigins?: readonly string[];
}

/** The origin of an absolute URL; null for a relative one (served from the page's own origin). */
function originOf(url: string): string | null {
  if (!/^https?:\/\//i.test(url)) return null;
  return new URL(url).origin;
}

function origins(urls: readonly string[]): string[] {
  return [...new Set(urls.map(originOf).filter((origin): origin is string => origin !== null))];
}

/**
 * The Content-Security-Policy of the shell and of every remote:
 * - scripts only from this origin and the remotes' origins (remoteEntry.js and chunks are loaded
 *   with <script> tags from there; override origins too, for preview builds): no inline script,
 *   no eval, so an injected <script> or a string handed to eval does not run;
 * - connections to this origin, the API and the remotes (the manifests are fetched);
 * - images from this origin, data:/blob: (the avatar cropper's preview) and the API (uploads);
 * - styles: 'unsafe-inline' because styled-components inserts its rules into <style> elements it
 *   creates at run time and React renders style attributes; neither can carry a nonce here (the
 *   pages are static files). Style injection cannot run script or send a token anywhere.
 * - no plugins, no <base> elsewhere, forms post only here, and no page may frame ours.
 */
export function contentSecurityPolicy({
  apiUrl,
  remotes,
  overrideOrigins = [],
}: CompositionConfig): string {
  const remoteOrigins = origins([...Object.values(remotes), ...overrideOrigins]);
  const api = origins([apiUrl]);
  const directives: [string, ...string[]][] = [
    ['default-src', "'self'"],
    ['script-src', "'self'", ...remoteOrigins],
    ['style-src', "'self'", "'unsafe-inline'"],
    ['img-src', "'self'", 'data:', 'blob:', ...api],
    ['connect-src', "'self'", ...origins([apiUrl, ...remoteOrigins])],
    ['object-src', "'none'"],
    ['base-uri', "'self'"],
    ['form-action', "'self'"],
    ['frame-ancestors', "'none'"],
  ];
  return directives.map((directive) => directive.join(' ')).join('; ');
}

/** Every response of every app carries these (a remote's index page included). */
export function securityHeaders(config: CompositionConfig): Record<string, string> {
  return {
    'Content-Security-Policy': contentSecurityPolicy(config),
    // frame-ancestors for browsers that predate it.
    'X-Frame-Options': 'DENY',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
  };
}
