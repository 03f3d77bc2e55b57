import { z } from 'zod';
import { idSchema, isoDateSchema, personNameSchema, requiredText } from './common';

export const APPLICATION_NAME_MAX_LENGTH = 100;
export const APPLICATION_CONTACT_MAX_LENGTH = 200;
export const APPLICATION_MESSAGE_MAX_LENGTH = 2000;

/** `POST /api/account-application` payload (public). */
export const accountApplicationRequestSchema = z.strictObject({
  name: personNameSchema('Full name', APPLICATION_NAME_MAX_LENGTH, {
    required: 'Full name is required',
    tooLong: `Full name must be at most ${APPLICATION_NAME_MAX_LENGTH} characters`,
  }),
  contactInfo: requiredText('Contact information', APPLICATION_CONTACT_MAX_LENGTH),
  message: requiredText('Additional information', APPLICATION_MESSAGE_MAX_LENGTH),
});
export type AccountApplicationRequest = z.infer<typeof accountApplicationRequestSchema>;

export const accountApplicationResponseSchema = z.object({
  id: idSchema,
  status: z.literal('pending'),
  createdAt: isoDateSchema,
});
export type AccountApplicationResponse = z.infer<typeof accountApplicationResponseSchema>;
