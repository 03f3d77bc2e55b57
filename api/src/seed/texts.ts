/** The demo campus's words (posts, job posts, comments) and the seeded PRNG that picks them. */

export const TOPICS = [
  'Library extended hours start this week: open until 2 am during #exams. #library',
  'Anyone up for a #StudyGroup on distributed systems? Thursday, room B204.',
  'The #robotics club demo day was amazing. Thanks to everyone who came! #CampusLife',
  'Lost a blue water bottle near the gym. Let me know if you find it.',
  'Free pizza at the #careers fair prep session tomorrow at noon.',
  'Just submitted my thesis draft. Time to sleep for a week.',
  'Campus #café finally has oat milk. Best news of the semester. #CampusLife',
  'Looking for a teammate for the #hackathon next month: frontend + design.',
  'Alumni panel on #careers in #ClimateTech next Friday. Bring questions!',
  'The new bike racks by the science building are a game changer.',
  'Reminder: course registration closes Sunday night. #exams',
  'Photos from the spring concert are up on the student union page.',
  'Does anyone have notes from yesterday’s linear algebra lecture?',
  '#Volunteering at the food bank this weekend, join us at 9 am. #CampusLife',
  'Proud of our debate team for making the national finals!',
];

export const JOBS = [
  'We are hiring summer interns in data engineering. DM me for a referral. #internship',
  'Research assistant position open in the bio lab, 10 h/week, paid.',
  'Graduate admissions: the MSc in AI application deadline is March 1.',
  'Junior frontend developer role at a campus startup, React + TypeScript. #hiring',
  'Teaching assistant openings for intro programming next term.',
  'My company is looking for a product design intern, remote friendly. #internship',
];

export const REACTIONS = [
  'Great point!',
  'Count me in.',
  'Thanks for sharing this.',
  'Is this open to first-years too?',
  'Same here, honestly.',
  'Where can I sign up?',
  'This made my day.',
  'Congrats!',
  'Following for updates.',
  'Can you share more details?',
];

/** Mulberry32: a small deterministic PRNG. */
export function prng(seed: number) {
  let a = seed;
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
