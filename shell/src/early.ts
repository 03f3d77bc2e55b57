// The shell's first script (issue 22: no waterfall): a separate entry with no chunk and no shared
// module, run by index.html before the shell's main script has even arrived. It reads env.json
// and, for a stored login, starts the landing route's first API calls (early-requests.ts); the
// main script finds them started and does not start them again. It also paints the member's
// colour scheme choice (issue 41, dark mode), so the boot frame is in it well before the app runs.
import { applyColorSchemePreference, readColorSchemePreference } from '@campus/kit/color-scheme';
import { startEarlyRequests } from './composition/early-requests';

applyColorSchemePreference(readColorSchemePreference());
startEarlyRequests();
