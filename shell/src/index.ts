import { startEarlyRequests } from './composition/early-requests';

// No waterfall: env.json and, for a stored login, the session check and the landing route's first
// data are requested now, while the shell's other scripts are still arriving.
startEarlyRequests();

// Async boundary: shared modules (React, the kit, ...) are negotiated before the app starts.
import('./bootstrap');
