import { nouns, verbs, type Noun, type Verb } from './words.js';

/*
 * The three subject areas of the demo site. A domain's words colour the prose of its posts; its
 * category tree (3 roots × 3 children × 2 grandchildren = 30 categories) gives each post its topic.
 */

export type DomainName = 'tech' | 'lifestyle' | 'business';
export const DOMAIN_NAMES: readonly DomainName[] = ['tech', 'lifestyle', 'business'];

export interface Domain {
  name: DomainName;
  nouns: Noun[];
  verbs: Verb[];
  adjectives: string[];
  /** Who the prose talks about, plural: `Most {who} …`. */
  who: string[];
}

export interface CategoryNode {
  name: string;
  /** Focus keywords of posts filed here (leaves only; a parent's posts borrow a descendant's). */
  topics?: string[];
  children?: CategoryNode[];
}

export const DOMAINS: Record<DomainName, Domain> = {
  tech: {
    name: 'tech',
    nouns: nouns([
      'deployment',
      'database',
      'query',
      'cache',
      'service',
      'release',
      'test suite',
      'schema',
      'index',
      'pipeline',
      'build',
      'dependency',
      'endpoint',
      'migration',
      'component',
      'codebase',
      'API',
      'log',
      'metric',
      'alert',
      'server',
      'container',
      'module',
      'pull request',
      'code review',
      'incident',
      'feature flag',
      'staging environment',
      'request',
      'library',
      'bundle',
      'browser',
      'cluster',
      'backup',
      'replica',
      'dashboard',
      'runbook',
      'commit',
      'branch',
      'config file',
    ]),
    verbs: verbs([
      'deploy',
      'refactor',
      'profile',
      'cache',
      'index',
      'ship|ships|shipping|shipped',
      'debug|debugs|debugging|debugged',
      'monitor',
      'roll back|rolls back|rolling back|rolled back',
      'benchmark',
      'migrate',
      'version',
      'lint',
      'scale',
      'provision',
      'patch',
      'upgrade',
      'instrument',
      'log|logs|logging|logged',
      'containerize',
    ]),
    adjectives: [
      'scalable',
      'flaky',
      'stateless',
      'idempotent',
      'asynchronous',
      'typed',
      'distributed',
      'legacy',
      'production-ready',
      'observable',
      'backward-compatible',
      'read-heavy',
      'latency-sensitive',
      'well-tested',
      'noisy',
      'cached',
    ],
    who: ['teams', 'developers', 'engineers', 'maintainers', 'small teams', 'on-call engineers'],
  },
  lifestyle: {
    name: 'lifestyle',
    nouns: nouns([
      'recipe',
      'ingredient',
      'kitchen',
      'oven',
      'pan',
      'dough',
      'meal',
      'garden',
      'plant',
      'seed',
      'soil',
      'trip',
      'itinerary',
      'backpack',
      'trail',
      'map',
      'room',
      'shelf|shelves',
      'weekend',
      'season',
      'neighbour',
      'market',
      'flight',
      'hotel',
      'cookbook',
      'herb',
      'harvest',
      'toolbox',
      'workbench',
      'window',
      'spice',
      'loaf|loaves',
      'pantry',
      'guidebook',
      'balcony',
      'day trip',
    ]),
    verbs: verbs([
      'cook',
      'bake',
      'taste',
      'pack',
      'travel|travels|travelling|travelled',
      'hike',
      'plant',
      'water',
      'prune',
      'sand',
      'paint',
      'repair',
      'season',
      'knead',
      'explore',
      'harvest',
      'book',
      'store',
      'label',
      'sketch',
    ]),
    adjectives: [
      'seasonal',
      'homemade',
      'fresh',
      'cozy',
      'rustic',
      'crisp',
      'hearty',
      'sturdy',
      'weathered',
      'crowded',
      'quiet',
      'scenic',
      'compact',
      'durable',
      'fragrant',
      'sunny',
    ],
    who: ['home cooks', 'travellers', 'gardeners', 'beginners', 'weekend cooks', 'families'],
  },
  business: {
    name: 'business',
    nouns: nouns([
      'customer',
      'campaign',
      'funnel',
      'newsletter',
      'audience',
      'brand',
      'revenue stream',
      'invoice',
      'account',
      'portfolio',
      'fund',
      'meeting',
      'manager',
      'new hire',
      'interview',
      'quarter',
      'forecast',
      'spreadsheet',
      'report',
      'contract',
      'client',
      'strategy',
      'headline',
      'keyword',
      'landing page',
      'salary',
      'expense',
      'savings account',
      'stakeholder',
      'roadmap',
      'proposal',
      'pricing page',
      'one-on-one',
      'job description',
    ]),
    verbs: verbs([
      'launch',
      'hire',
      'invest',
      'negotiate',
      'forecast',
      'pitch',
      'target',
      'rebalance',
      'save',
      'delegate',
      'onboard',
      'promote',
      'report',
      'publish',
      'grow|grows|growing|grew',
      'sell|sells|selling|sold',
      'spend|spends|spending|spent',
      'audit',
      'interview',
      'segment',
    ]),
    adjectives: [
      'profitable',
      'remote',
      'long-term',
      'short-term',
      'data-driven',
      'customer-facing',
      'recurring',
      'diversified',
      'competitive',
      'organic',
      'low-cost',
      'high-level',
      'cross-functional',
      'quarterly',
      'measurable',
      'transparent',
    ],
    who: ['marketers', 'managers', 'founders', 'investors', 'small teams', 'freelancers'],
  },
};

export const CATEGORY_TREE: Record<DomainName, CategoryNode> = {
  tech: {
    name: 'Technology',
    children: [
      {
        name: 'Web Development',
        children: [
          { name: 'Frontend', topics: ['frontend performance', 'CSS layout', 'accessible forms', 'component design'] },
          { name: 'Backend', topics: ['API design', 'background jobs', 'rate limiting', 'error handling'] },
        ],
      },
      {
        name: 'Data',
        children: [
          {
            name: 'Databases',
            topics: ['database indexing', 'query optimization', 'schema migrations', 'connection pooling'],
          },
          { name: 'Analytics', topics: ['event tracking', 'product analytics', 'data pipelines', 'dashboard design'] },
        ],
      },
      {
        name: 'DevOps',
        children: [
          {
            name: 'CI/CD',
            topics: ['continuous integration', 'deployment pipelines', 'release automation', 'feature flags'],
          },
          {
            name: 'Cloud',
            topics: ['cloud costs', 'container orchestration', 'infrastructure as code', 'backup strategy'],
          },
        ],
      },
    ],
  },
  lifestyle: {
    name: 'Lifestyle',
    children: [
      {
        name: 'Food',
        children: [
          { name: 'Recipes', topics: ['weeknight dinners', 'meal prep', 'one-pot meals', 'seasonal cooking'] },
          { name: 'Baking', topics: ['sourdough bread', 'baking basics', 'pastry dough', 'cake decorating'] },
        ],
      },
      {
        name: 'Travel',
        children: [
          {
            name: 'City Breaks',
            topics: ['city breaks', 'travel itineraries', 'museum visits', 'public transport abroad'],
          },
          { name: 'Outdoors', topics: ['hiking trips', 'camping gear', 'trail running', 'packing lists'] },
        ],
      },
      {
        name: 'Home',
        children: [
          { name: 'Gardening', topics: ['vegetable gardening', 'composting', 'indoor plants', 'raised beds'] },
          { name: 'DIY', topics: ['home repairs', 'furniture restoration', 'small renovations', 'tool storage'] },
        ],
      },
    ],
  },
  business: {
    name: 'Business',
    children: [
      {
        name: 'Marketing',
        children: [
          { name: 'SEO', topics: ['search engine optimization', 'keyword research', 'link building', 'technical SEO'] },
          {
            name: 'Content Strategy',
            topics: ['editorial calendars', 'content audits', 'newsletter growth', 'brand voice'],
          },
        ],
      },
      {
        name: 'Finance',
        children: [
          {
            name: 'Personal Finance',
            topics: ['emergency funds', 'monthly budgeting', 'retirement savings', 'debt repayment'],
          },
          {
            name: 'Investing',
            topics: ['index funds', 'asset allocation', 'dividend investing', 'portfolio rebalancing'],
          },
        ],
      },
      {
        name: 'Careers',
        children: [
          {
            name: 'Remote Work',
            topics: ['remote onboarding', 'async communication', 'home office setup', 'distributed teams'],
          },
          {
            name: 'Leadership',
            topics: ['one-on-one meetings', 'hiring interviews', 'performance reviews', 'team rituals'],
          },
        ],
      },
    ],
  },
};

/** Every topic under a node, leaves in order. */
export function topicsUnder(node: CategoryNode): string[] {
  return [...(node.topics ?? []), ...(node.children ?? []).flatMap(topicsUnder)];
}
