// The shell's first script (issue 22: no waterfall): a separate entry with no chunk and no shared
// module, run by index.html before the shell's main script has even arrived. It reads env.json
// and, for a stored login, starts the landing route's first API calls (early-requests.ts); the
// main script finds them started and does not start them again.
import { startEarlyRequests } from './composition/early-requests';

startEarlyRequests();
