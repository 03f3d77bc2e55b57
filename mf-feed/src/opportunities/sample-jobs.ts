import type { SampleJob } from '@campus/contracts';

/** Spec §2/§3: the one hard-coded sample job of the placeholder. */
export const SAMPLE_JOBS: readonly SampleJob[] = [
  {
    id: 1,
    recruiterName: 'Priya Raman',
    recruiterTitle: 'Talent Partner',
    isRecruiterVerified: true,
    jobTitle: 'Graduate Software Engineer',
    isNew: true,
    salaryRange: '$70,000 - $85,000',
    company: 'Northwind Labs',
    location: 'Hybrid · Boston, MA',
    experience: '0-2 years',
    jobType: 'Full-time',
    responsibilities: [
      'Build and ship features across our web platform',
      'Write tests and take part in code reviews',
      'Work with designers and product managers on new ideas',
    ],
  },
];
