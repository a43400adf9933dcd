/*
 * Templates of seeded prose. Slots: {n} noun, {ns} plural noun, {a} adjective, {v} {vs} {ving} {ved}
 * verb forms, {adv} adverb, {t} the post's topic, {t2} another topic of its domain, {who} people,
 * {open} a sentence opener, {time} a time phrase, {unit} a span of time, {num} a number word,
 * {numd} a small number in digits, {pct} a percentage. "a" before a vowel sound becomes "an" afterwards.
 */

export const SENTENCES = [
  '{open} the {a} {n} is rarely the hardest part of {t}.',
  '{open} {who} tend to {v} the {n} {adv}, and that is usually fine.',
  'If you {v} the {n} early, the rest of the {n} becomes much easier to {v}.',
  'We tried {num} different {ns} before settling on one that felt {a}.',
  'A {a} {n} beats a {a} {n} almost every time.',
  'The trick is to {v} one {n} at a time and to check the results {adv}.',
  '{time}, the difference between a {a} {n} and a {a} one becomes obvious.',
  'Nobody gets the {n} right on the first try, so plan for a second pass.',
  'When it comes to {t}, {a} {ns} beat clever ones more often than you might expect.',
  'It helps to write down why you {ved} each {n}, not just what you {ved}.',
  'Start with the {n} you already have, then {v} only what is missing.',
  '{ving} the {n} {adv} saves hours of {ving} later.',
  'Ask yourself whether the {n} really needs another {n}, or simply a {a} {n}.',
  'The {ns} that last are the ones that are easy to {v} and hard to misuse.',
  'Our readers often ask how to {v} a {n} without {ving} the whole {n}.',
  'There is no perfect answer here, but there are a few {a} defaults.',
  '{open} {t} is less about {ns} and more about {ns}.',
  'Keep the {n} {a}; a {a} {n} is much harder to {v} later on.',
  'Every {n} has a cost, and the {a} ones hide it in the {n}.',
  'By the time you {v} the {n}, most of the real decisions have already been made.',
  'It is tempting to {v} everything at once, but {t} rarely rewards haste.',
  'A short checklist makes it far easier to {v} the {n} consistently.',
  'Measure the {n} before and after, or you will never know whether the change helped.',
  '{time}, small improvements to the {n} add up to a noticeably {a} {n}.',
  'The classic mistake is to {v} the {n} before you understand the {n}.',
  'One useful rule: if a {n} cannot be explained in a sentence, it is not ready.',
  'We learned this the hard way, after a {a} {n} cost us most of a {unit}.',
  'Treat the {n} as a draft, not a promise, and {v} it as you learn.',
  'Most of the value comes from the first {num} {ns}; the rest is polish.',
  'Talk to the {who} who {v} the {n} every day before you change anything.',
  '{who} who {v} {adv} tend to end up with a {a} {n} that lasts.',
  'The {n} matters, but the {n} around it matters more.',
  'In the end, {t} comes down to a handful of {a} habits.',
  'If the {n} feels {a}, that is usually a sign to {v} the {n} first.',
  'You do not need a {a} {n} to get started; a {a} {n} and some patience will do.',
  'Write the {n} down, share it with someone you trust, and {v} it {adv}.',
  '{open} we {v} the {n} once a {unit} and revisit the {n} whenever something changes.',
  'The numbers are modest: about {pct} percent fewer surprises after we started to {v} the {n}.',
  'Resist the urge to {v} the {n} until you have seen it fail at least once.',
  'None of this requires a big budget, only a {a} {n} and the discipline to {v} it.',
  'A {a} {n} is not the same as a {a} one, and the difference shows up {adv}.',
  '{who} often underestimate how much a {a} {n} changes the rest of the {n}.',
];

export const TITLES = [
  'A Practical Guide to {t}',
  '{numd} {a} Ways to Improve Your {t}',
  'Why {t} Matters More Than You Think',
  'What Nobody Tells You About {t}',
  "A Beginner's Guide to {t}",
  '{numd} {t} Mistakes We Keep Making',
  'The {a} Approach to {t}',
  'Is {t} Worth It? An Honest Look',
  '{t}: Lessons From a Year of {ving} {ns}',
  '{numd} Questions to Ask Before You {v} Your {n}',
  'A Field Guide to {t}',
  'Rethinking {t}: What We Changed and Why',
  '{t} Without the Stress',
  'The Hidden Cost of {a} {ns}',
  'How We {ved} Our {n} in {numd} Weeks',
  '{t} vs. {t2}: Where Should You Start?',
  'Everything You Need to Know About {t}',
  'The {t} Checklist We Actually Use',
  '{a} {ns} and the Case for {t}',
  'What {numd} Years of {t} Taught Us',
];

export const HOW_TO_TITLES = [
  'How to {v} Your {n}: A Step-by-Step Guide',
  'How to Get Started With {t}',
  'How to {v} {a} {ns} in {numd} Steps',
  'How to Set Up {t} From Scratch',
];

export const H2 = [
  'Why {t} matters',
  'Start with the {n}',
  'Choosing the right {n}',
  'Common mistakes with {ns}',
  'A {a} workflow for {t}',
  'How to {v} the {n}',
  'Measuring what matters',
  'What we would do differently',
  'The role of the {n}',
  'When to {v} your {ns}',
  '{a} {ns}, explained',
  'Getting the {n} right',
  'A closer look at {ns}',
  'Where {ns} go wrong',
  'Making {t} stick',
  'The {n} nobody talks about',
  'Tools and resources',
  'Before you {v} anything',
  'Budgeting time for {t}',
];

export const H3 = [
  'A note on {ns}',
  'Example: {ving} a {n}',
  '{v} before you {v}',
  'The {a} option',
  'What about {ns}?',
  'Trade-offs',
  'A quick example',
  'If you only have an hour',
  'Keeping the {n} {a}',
  'Signals to watch',
];

export const H4 = [
  'Edge case: {a} {ns}',
  'Checklist',
  'Further reading',
  'A small caveat',
  'Why this works',
  'One more thing',
];

export const STEP_HEADING = 'Step {k}: {v} the {n}';

export const CONCLUSIONS = ['Wrapping up', 'Final thoughts', 'The bottom line', 'Conclusion', 'Where to go from here'];

export const LIST_ITEMS = [
  '{v} the {n} before you {v} the {n}',
  'Keep a {a} {n} for every {n}',
  '{v} {ns} {adv}',
  'A {a} {n} you can {v} in a {unit}',
  'Write down what you {ved} and why',
  'Review the {n} once a {unit}',
  'Ask the {who} who rely on the {n}',
  'Budget time to {v} the {n}',
  'Start small: one {n}, one {n}',
  'Limit yourself to {num} {ns} at first',
  'A {a} default for every {n}',
  'Check the {n} after every change',
  'Plan for the {a} case, not the ideal one',
];

export const FAQ_QUESTIONS = [
  'How long does it take to {v} a {n}?',
  'Do I need a {a} {n} for {t}?',
  'What is the biggest mistake people make with {t}?',
  'How often should I {v} the {n}?',
  'Is {t} worth it for beginners?',
  'What should I {v} first?',
  'Can I {v} the {n} later?',
  'What does a {a} {n} cost?',
  'Which {ns} matter most for {t}?',
];

export const TAKEAWAYS = [
  '{t} works best when the {n} is {a}.',
  '{v} the {n} {adv}; it pays off.',
  'A {a} {n} beats a clever one.',
  'Measure before and after every change.',
  'Start with the {n} you already have.',
  'Write down why you {ved} each {n}.',
  'Most of the value comes from the first {num} {ns}.',
  'Plan for a second pass; nobody gets the {n} right at once.',
];

export const EXCERPTS = [
  'A {a} look at {t}, with {num} ideas you can use this {unit}.',
  'What we learned about {t} after a year of {ving} {ns}.',
  'Everything we wish we had known before we started to {v} the {n}.',
  'A practical guide to {t}, from the first {n} to the last {n}.',
  'Why {a} {ns} matter for {t}, and how to {v} them without the stress.',
];

export const CALLOUTS = {
  info: {
    titles: ['Note', 'Good to know', 'Context'],
    body: 'The {n} and the {n} are related, but they are not the same thing.',
  },
  warning: {
    titles: ['Heads up', 'Watch out', 'Before you start'],
    body: 'Do not {v} the {n} while the {n} is still changing.',
  },
  success: {
    titles: ['Tip', 'Quick win', 'What worked for us'],
    body: 'A {a} {n} is often all it takes to {v} the {n} reliably.',
  },
  error: {
    titles: ['Common mistake', 'Avoid this', 'What went wrong'],
    body: 'Skipping the {n} looks {a} until the first time the {n} fails.',
  },
} as const;

export const CAPTIONS = [
  'The {n} after we {ved} it.',
  'A {a} {n}, {time}.',
  'Figure {numd}: a {a} {n} in practice.',
  'Our {n}, before the change.',
];

export const VIDEO_TITLES = [
  'Watch: {t} in {numd} minutes',
  'A short walkthrough of {ving} the {n}',
  'Video: our {t} routine',
];

export const CTAS = [
  { title: 'Get the {t} checklist', label: 'Download the checklist', url: 'https://example.com/checklists' },
  { title: 'Join our newsletter', label: 'Subscribe', url: 'https://example.com/newsletter' },
  { title: 'Want more on {t}?', label: 'Read the next guide', url: 'https://example.com/guides' },
  { title: 'Try it this {unit}', label: 'Start now', url: 'https://example.com/start' },
] as const;

export const UNITS = ['week', 'month', 'weekend', 'quarter', 'season'];
