// Async boundary: shared modules (React, the kit, ...) are negotiated before the app starts.
// The chunk's name marks it as the standalone harness (rspack.shared.js: not a page's code).
import(/* webpackChunkName: "standalone" */ './bootstrap');
