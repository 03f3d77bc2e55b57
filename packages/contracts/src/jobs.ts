import { z } from 'zod';

/** The hard-coded sample job of the opportunities placeholder (spec §3). */
export const sampleJobSchema = z.object({
  id: z.number().int(),
  recruiterName: z.string(),
  recruiterTitle: z.string(),
  isRecruiterVerified: z.boolean(),
  jobTitle: z.string(),
  isNew: z.boolean(),
  salaryRange: z.string(),
  company: z.string(),
  location: z.string(),
  experience: z.string(),
  jobType: z.string(),
  responsibilities: z.array(z.string()),
});
export type SampleJob = z.infer<typeof sampleJobSchema>;
