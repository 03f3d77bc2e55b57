import { z } from 'zod';

// The pages' Content-Security-Policy forbids eval (e2e/support/security-headers.ts). zod compiles
// object parsers with `new Function` when it may, and finds out by calling `Function('')` once,
// which the browser blocks and reports as a violation. jitless skips both the probe and the
// compiled parsers. zod keeps this setting on globalThis, so it holds for the remotes' own copies
// of zod too. Imported first by bootstrap.tsx, before anything parses.
z.config({ jitless: true });
