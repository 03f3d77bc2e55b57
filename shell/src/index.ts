// Async boundary: shared modules (React, the kit, ...) are negotiated before the app starts.
import('./bootstrap');
