/** Everyone in the demo data signs in with this password (listed in api/README.md). */
export const DEMO_PASSWORD = 'campus-demo';

export interface DemoUser {
  name: string;
  email: string;
  bio: string;
  colour: string;
}

export const DEMO_ADMIN: DemoUser = {
  name: 'Campus Admin',
  email: 'admin@campus.edu',
  bio: 'Keeping Campus running. Send feedback from your profile any time.',
  colour: '#1f2937',
};

export const DEMO_MEMBERS: DemoUser[] = [
  {
    name: 'Ada Okafor',
    email: 'ada.okafor@campus.edu',
    bio: 'CS junior. Compilers, climbing and cold brew.',
    colour: '#2563eb',
  },
  {
    name: 'Ben Larsen',
    email: 'ben.larsen@campus.edu',
    bio: 'Mechanical engineering, Formula Student team lead.',
    colour: '#16a34a',
  },
  {
    name: 'Chiara Rossi',
    email: 'chiara.rossi@campus.edu',
    bio: 'Architecture student sketching the campus one building at a time.',
    colour: '#dc2626',
  },
  {
    name: 'Daniel Kim',
    email: 'daniel.kim@mail.campus.edu',
    bio: 'Alumnus (2019), now a data engineer. Happy to talk careers.',
    colour: '#9333ea',
  },
  {
    name: 'Elena Petrova',
    email: 'elena.petrova@campus.edu',
    bio: 'Physics PhD candidate. Lasers are cool.',
    colour: '#ea580c',
  },
  {
    name: 'Farid Haddad',
    email: 'farid.haddad@campus.edu',
    bio: 'Economics, debate club captain.',
    colour: '#0891b2',
  },
  {
    name: 'Grace Chen',
    email: 'grace.chen@cu.edu',
    bio: 'Biology major, volunteering at the campus garden.',
    colour: '#65a30d',
  },
  {
    name: 'Hugo Martin',
    email: 'hugo.martin@campus.edu',
    bio: 'Film studies. Ask me for a movie recommendation.',
    colour: '#c026d3',
  },
  {
    name: 'Ines Duarte',
    email: 'ines.duarte@campus.edu',
    bio: 'Chemistry TA and amateur baker.',
    colour: '#e11d48',
  },
  {
    name: 'Jonas Weber',
    email: 'jonas.weber@mail.campus.edu',
    bio: 'Alumnus, founder of a small robotics startup. Hiring interns.',
    colour: '#0d9488',
  },
  {
    name: 'Keiko Tanaka',
    email: 'keiko.tanaka@campus.edu',
    bio: 'Linguistics and Japanese-English tandem partner.',
    colour: '#7c3aed',
  },
  {
    name: 'Liam O\u2019Brien',
    email: 'liam.obrien@campus.edu',
    bio: 'History major, runs the campus radio morning show.',
    colour: '#b45309',
  },
  {
    name: 'Maya Patel',
    email: 'maya.patel@campus.edu',
    bio: 'Pre-med, hackathon organiser, tea enthusiast.',
    colour: '#db2777',
  },
  {
    name: 'Nikolai Ivanov',
    email: 'nikolai.ivanov@campus.edu',
    bio: 'Mathematics. Chess club on Thursdays.',
    colour: '#4f46e5',
  },
  {
    name: 'Olivia Brown',
    email: 'olivia.brown@cu.edu',
    bio: 'Student union president. My door is open.',
    colour: '#059669',
  },
  {
    name: 'Pedro Alves',
    email: 'pedro.alves@campus.edu',
    bio: 'Civil engineering, bridges and bossa nova.',
    colour: '#d97706',
  },
  {
    name: 'Qian Zhou',
    email: 'qian.zhou@campus.edu',
    bio: 'Statistics grad student, R and Python.',
    colour: '#0284c7',
  },
  {
    name: 'Rosa Jim\u00e9nez',
    email: 'rosa.jimenez@mail.campus.edu',
    bio: 'Alumna, product designer. Portfolio reviews on request.',
    colour: '#be123c',
  },
  {
    name: 'Samuel Mensah',
    email: 'samuel.mensah@campus.edu',
    bio: 'Electrical engineering, solar car team.',
    colour: '#15803d',
  },
  {
    name: 'Tara Singh',
    email: 'tara.singh@campus.edu',
    bio: 'Psychology, peer mentor for first-years.',
    colour: '#a21caf',
  },
  {
    name: 'Umar Farouk',
    email: 'umar.farouk@campus.edu',
    bio: 'Business school, running the entrepreneurship society.',
    colour: '#0f766e',
  },
  {
    name: 'Valentina Greco',
    email: 'valentina.greco@campus.edu',
    bio: 'Music performance, violin. Concerts every other Friday.',
    colour: '#9d174d',
  },
  {
    name: 'William Scott',
    email: 'william.scott@cu.edu',
    bio: 'Environmental science, cycling everywhere.',
    colour: '#166534',
  },
  {
    name: 'Yara Haddad',
    email: 'yara.haddad@campus.edu',
    bio: 'Journalism, editor of the student paper.',
    colour: '#1d4ed8',
  },
];
