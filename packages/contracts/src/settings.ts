import { z } from 'zod';

/** The logo setting's value meaning "use the bundled default logo". */
export const LOCAL_LOGO = 'local';

/** `GET /api/settings`. */
export const settingsSchema = z.object({ logo_url: z.string() });
export type Settings = z.infer<typeof settingsSchema>;
