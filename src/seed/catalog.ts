import type { DomainName } from './topics.js';

/* The fixed cast of the demo site: twelve fictional authors and fifty tags. */

export interface AuthorSpec {
  name: string;
  domain: DomainName;
  jobTitle: string;
  worksFor: string;
  alumniOf: string;
  knowsAbout: string[];
  credentials?: string;
  award?: string;
  honorificPrefix?: string;
  honorificSuffix?: string;
  bio: string;
}

export const AUTHORS: AuthorSpec[] = [
  {
    name: 'Maren Okafor',
    domain: 'tech',
    jobTitle: 'Staff Engineer',
    worksFor: 'Northwind Labs',
    alumniOf: 'University of Edinburgh',
    knowsAbout: ['PostgreSQL', 'API design', 'Observability'],
    credentials: 'MSc Computer Science',
    bio: 'Maren has spent twelve years building and operating data-heavy web services. She writes about databases, APIs and the unglamorous work of keeping production calm.',
  },
  {
    name: 'Tobias Lindqvist',
    domain: 'tech',
    jobTitle: 'Frontend Lead',
    worksFor: 'Fjord Digital',
    alumniOf: 'KTH Royal Institute of Technology',
    knowsAbout: ['CSS', 'Accessibility', 'Design systems'],
    bio: 'Tobias leads a small frontend team and cares about fast, accessible interfaces. He teaches a weekend course on modern CSS.',
  },
  {
    name: 'Ana Ribeiro',
    domain: 'tech',
    jobTitle: 'Site Reliability Engineer',
    worksFor: 'Cloudberry Systems',
    alumniOf: 'University of Porto',
    knowsAbout: ['Kubernetes', 'Incident response', 'Cloud costs'],
    award: 'Cloudberry Engineering Award 2023',
    bio: 'Ana keeps clusters healthy and on-call rotations humane. Her posts cover deployments, backups and the economics of the cloud.',
  },
  {
    name: 'Daniel Mwangi',
    domain: 'tech',
    jobTitle: 'Data Engineer',
    worksFor: 'Savanna Analytics',
    alumniOf: 'University of Nairobi',
    knowsAbout: ['Data pipelines', 'SQL', 'Product analytics'],
    bio: 'Daniel builds the pipelines behind product dashboards. He believes most analytics problems are naming problems in disguise.',
  },
  {
    name: 'Elise Fontaine',
    domain: 'lifestyle',
    jobTitle: 'Food Writer',
    worksFor: 'Le Petit Carnet',
    alumniOf: 'Institut Paul Bocuse',
    knowsAbout: ['Baking', 'Seasonal cooking', 'Meal prep'],
    credentials: 'Diploma in Culinary Arts',
    honorificPrefix: 'Chef',
    bio: 'Elise trained as a pastry chef before turning to writing. She develops recipes for busy weeknights and slow Sunday bakes.',
  },
  {
    name: 'Kenji Morimoto',
    domain: 'lifestyle',
    jobTitle: 'Travel Editor',
    worksFor: 'Wayfarer Quarterly',
    alumniOf: 'Waseda University',
    knowsAbout: ['City breaks', 'Rail travel', 'Hiking'],
    bio: 'Kenji has visited more than forty countries, most of them by train. He writes itineraries for people with more curiosity than vacation days.',
  },
  {
    name: 'Rosa Delgado',
    domain: 'lifestyle',
    jobTitle: 'Horticulturist',
    worksFor: 'Greenway Community Gardens',
    alumniOf: 'University of Valencia',
    knowsAbout: ['Vegetable gardening', 'Composting', 'Indoor plants'],
    honorificPrefix: 'Dr.',
    credentials: 'PhD Plant Science',
    bio: 'Rosa runs a community garden and a small seed library. She writes about growing food in small spaces and healthy soil.',
  },
  {
    name: "Liam O'Connell",
    domain: 'lifestyle',
    jobTitle: 'Carpenter and DIY Instructor',
    worksFor: 'Oak & Iron Workshop',
    alumniOf: 'Dublin Institute of Technology',
    knowsAbout: ['Woodworking', 'Home repairs', 'Furniture restoration'],
    bio: 'Liam restores old furniture and teaches beginners to use hand tools safely. His guides assume one free Saturday and a modest toolbox.',
  },
  {
    name: 'Aisha Rahman',
    domain: 'business',
    jobTitle: 'Head of Content',
    worksFor: 'Brightline Media',
    alumniOf: 'London School of Economics',
    knowsAbout: ['Content strategy', 'SEO', 'Newsletters'],
    bio: 'Aisha plans editorial calendars for a network of niche publications. She writes about content that earns its traffic.',
  },
  {
    name: 'Victor Hale',
    domain: 'business',
    jobTitle: 'Financial Planner',
    worksFor: 'Harbor Wealth Partners',
    alumniOf: 'University of Toronto',
    knowsAbout: ['Personal finance', 'Index funds', 'Retirement planning'],
    honorificSuffix: 'CFP',
    credentials: 'Certified Financial Planner',
    bio: 'Victor helps families build plans they can actually follow. Nothing he writes is individual financial advice.',
  },
  {
    name: 'Grace Achterberg',
    domain: 'business',
    jobTitle: 'VP of People',
    worksFor: 'Remote First Co.',
    alumniOf: 'Erasmus University Rotterdam',
    knowsAbout: ['Remote work', 'Hiring', 'Leadership'],
    bio: 'Grace has built distributed teams across nine time zones. She writes about hiring, onboarding and meetings worth having.',
  },
  {
    name: 'Sam Whitfield',
    domain: 'business',
    jobTitle: 'Growth Marketer',
    worksFor: 'Whitfield Consulting',
    alumniOf: 'University of Manchester',
    knowsAbout: ['Analytics', 'Copywriting', 'Keyword research'],
    award: 'Content Marketing Shortlist 2022',
    bio: 'Sam helps small companies find their first thousand customers. He is suspicious of any metric that only goes up.',
  },
];

/** Tag names with the domain whose posts mostly carry them; null fits any post. */
export const TAGS: Array<{ name: string; domain: DomainName | null }> = [
  ...[
    'Beginners',
    'Advanced',
    'Checklists',
    'Case Study',
    'Opinion',
    'Tutorial',
    'Tools',
    'Productivity',
    'Habits',
    'Year in Review',
    'Sustainability',
    'Side Projects',
  ].map((name) => ({ name, domain: null })),
  ...[
    'Performance',
    'Security',
    'Accessibility',
    'TypeScript',
    'PostgreSQL',
    'SQLite',
    'Kubernetes',
    'Testing',
    'Observability',
    'APIs',
    'Open Source',
    'Design Systems',
    'CSS',
  ].map((name) => ({ name, domain: 'tech' as const })),
  ...[
    'Vegetarian',
    'Quick Meals',
    'Bread',
    'Desserts',
    'Budget Travel',
    'Europe',
    'Asia',
    'Hiking',
    'Houseplants',
    'Composting',
    'Woodworking',
    'Small Spaces',
  ].map((name) => ({ name, domain: 'lifestyle' as const })),
  ...[
    'Newsletters',
    'Analytics',
    'Copywriting',
    'Social Media',
    'Saving Money',
    'Retirement',
    'Taxes',
    'Index Funds',
    'Hiring',
    'Management',
    'Remote Teams',
    'Interviews',
    'Career Growth',
  ].map((name) => ({ name, domain: 'business' as const })),
];
