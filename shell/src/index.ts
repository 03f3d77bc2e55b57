// The landing route's early requests (env.json, the session check, the route's first data) were
// started by the shell's first script, src/early.ts, which index.html runs before this one (see
// early-script-plugin.cjs): bootstrap and the route's remote take their answers.

// Async boundary: shared modules (React, the kit, ...) are negotiated before the app starts.
import('./bootstrap');
