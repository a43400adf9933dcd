/*
 * The general English vocabulary of seeded prose. Each domain (topics.ts) adds its own nouns, verbs
 * and adjectives; these words fit any of them. Verbs are written `base|3rd|-ing|past` when irregular.
 */

export interface Verb {
  base: string;
  third: string;
  ing: string;
  past: string;
}

function regularForms(base: string): Verb {
  const third = /(s|sh|ch|x|z)$/.test(base)
    ? `${base}es`
    : /[^aeiou]y$/.test(base)
      ? `${base.slice(0, -1)}ies`
      : `${base}s`;
  const ing = /[^aeiou]e$/.test(base) && base !== 'see' ? `${base.slice(0, -1)}ing` : `${base}ing`;
  const past = /e$/.test(base) ? `${base}d` : /[^aeiou]y$/.test(base) ? `${base.slice(0, -1)}ied` : `${base}ed`;
  return { base, third, ing, past };
}

/** `plan` or `plan|plans|planning|planned`. */
export function verbs(list: readonly string[]): Verb[] {
  return list.map((entry) => {
    const [base, third, ing, past] = entry.split('|');
    if (third && ing && past) return { base: base!, third, ing, past };
    return regularForms(base!);
  });
}

export interface Noun {
  one: string;
  many: string;
}

/** `habit` or `person|people`. */
export function nouns(list: readonly string[]): Noun[] {
  return list.map((entry) => {
    const [one, many] = entry.split('|') as [string, string | undefined];
    if (many) return { one, many };
    const plural = /(s|sh|ch|x|z)$/.test(one)
      ? `${one}es`
      : /[^aeiou]y$/.test(one)
        ? `${one.slice(0, -1)}ies`
        : `${one}s`;
    return { one, many: plural };
  });
}

export const GENERAL_VERBS = verbs([
  'plan|plans|planning|planned',
  'measure',
  'improve',
  'test',
  'review',
  'simplify',
  'track',
  'choose|chooses|choosing|chose',
  'learn',
  'change',
  'share',
  'start',
  'finish',
  'explain',
  'write|writes|writing|wrote',
  'compare',
  'avoid',
  'fix',
  'keep|keeps|keeping|kept',
  'design',
  'document',
  'reduce',
  'prepare',
  'organize',
  'check',
  'adjust',
  'manage',
  'schedule',
  'revisit',
  'question',
  'automate',
  'standardize',
  'prioritize',
  'outline',
  'refine',
  'budget',
  'rethink|rethinks|rethinking|rethought',
  'build|builds|building|built',
  'run|runs|running|ran',
  'split|splits|splitting|split',
  'set up|sets up|setting up|set up',
  'clean up|cleans up|cleaning up|cleaned up',
  'break down|breaks down|breaking down|broke down',
]);

export const GENERAL_NOUNS = nouns([
  'approach',
  'habit',
  'mistake',
  'decision',
  'trade-off',
  'process',
  'result',
  'goal',
  'plan',
  'routine',
  'budget',
  'detail',
  'question',
  'problem',
  'pattern',
  'rule',
  'checklist',
  'team',
  'reader',
  'beginner',
  'expert',
  'tool',
  'method',
  'step',
  'change',
  'risk',
  'assumption',
  'constraint',
  'priority',
  'experiment',
  'baseline',
  'deadline',
  'estimate',
  'outcome',
  'default',
  'shortcut',
  'principle',
  'framework',
  'guideline',
  'draft',
  'template',
  'milestone',
  'bottleneck',
  'feedback loop',
  'first version',
  'starting point',
  'side project',
  'routine task',
  'rough edge',
  'weekly review',
  'person|people',
]);

export const GENERAL_ADJECTIVES = [
  'simple',
  'practical',
  'common',
  'small',
  'steady',
  'careful',
  'reliable',
  'obvious',
  'useful',
  'difficult',
  'expensive',
  'cheap',
  'quick',
  'slow',
  'modern',
  'clear',
  'honest',
  'realistic',
  'consistent',
  'flexible',
  'boring',
  'fragile',
  'robust',
  'subtle',
  'hidden',
  'familiar',
  'overlooked',
  'sensible',
  'ambitious',
  'modest',
  'predictable',
  'focused',
  'messy',
  'thoughtful',
  'lightweight',
  'sustainable',
  'incremental',
  'unglamorous',
  'deliberate',
  'forgiving',
];

export const ADVERBS = [
  'usually',
  'often',
  'rarely',
  'quietly',
  'carefully',
  'gradually',
  'deliberately',
  'eventually',
  'regularly',
  'early',
  'consistently',
  'honestly',
  'quickly',
  'patiently',
  'slowly',
  'openly',
  'properly',
  'explicitly',
];

export const OPENERS = [
  'In practice,',
  'That said,',
  'On the other hand,',
  'For most readers,',
  'Put simply,',
  'Over time,',
  'Surprisingly,',
  'In our experience,',
  'More often than not,',
  'As a rule of thumb,',
  'To be fair,',
  'Either way,',
  'In the long run,',
  'Looking back,',
  'For what it is worth,',
  'Admittedly,',
  'Fortunately,',
  'In short,',
];

export const TIME_PHRASES = [
  'In the first week',
  'After a few months',
  'Within a quarter',
  'By the end of the year',
  'Over a long weekend',
  'A year later',
  'After the first launch',
  'Sooner or later',
  'Within a few days',
  'Once the novelty wears off',
];

export const NUMBER_WORDS = ['two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'ten', 'twelve'];

export const FIRST_NAMES = [
  'Priya',
  'Jonas',
  'Amara',
  'Lucas',
  'Mei',
  'Tomasz',
  'Leila',
  'Diego',
  'Hannah',
  'Kwame',
  'Sofia',
  'Ravi',
  'Ingrid',
  'Mateo',
  'Yuki',
  'Omar',
  'Clara',
  'Felix',
  'Nadia',
  'Samuel',
];

export const LAST_NAMES = [
  'Natarajan',
  'Lindqvist',
  'Okafor',
  'Moreau',
  'Chen',
  'Kowalski',
  'Haddad',
  'Ortega',
  'Becker',
  'Mensah',
  'Rossi',
  'Iyer',
  'Solberg',
  'Alvarez',
  'Tanaka',
  'Farouk',
  'Dubois',
  'Hartmann',
  'Petrova',
  'Adeyemi',
];

export const ROLES = [
  'engineering manager',
  'product designer',
  'head of content',
  'founder',
  'staff engineer',
  'data analyst',
  'home cook',
  'travel writer',
  'financial planner',
  'gardener',
  'marketing lead',
  'consultant',
  'teacher',
];

/** Words kept lowercase inside a title. */
export const TITLE_SMALL_WORDS = new Set([
  'a',
  'an',
  'and',
  'as',
  'at',
  'but',
  'by',
  'for',
  'from',
  'in',
  'into',
  'of',
  'on',
  'or',
  'the',
  'to',
  'with',
  'vs',
]);
