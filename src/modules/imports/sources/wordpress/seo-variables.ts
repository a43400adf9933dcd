/*
 * Yoast's `%%title%%` and Rank Math's `%title%` snippet variables, replaced as the plugins would on the page. A
 * variable this reader cannot know (a custom field, a term of another taxonomy) is left out, never kept as text.
 */

export interface SnippetValues {
  title: string;
  siteName: string;
  siteDescription: string;
  excerpt: string;
  category: string;
  primaryCategory: string;
  tags: string;
  author: string;
  focusKeyword: string;
  /** The post's date as WordPress's default date format writes it (`May 1, 2019`); '' without one. */
  date: string;
  currentYear: string;
}

export const SEPARATOR = '–';

function value(name: string, values: SnippetValues): string {
  switch (name.toLowerCase()) {
    case 'title':
    case 'pagetitle':
      return values.title;
    case 'sitename':
      return values.siteName;
    case 'sitedesc':
      return values.siteDescription;
    case 'sep':
      return SEPARATOR;
    case 'excerpt':
    case 'excerpt_only':
    case 'wc_shortdesc':
      return values.excerpt;
    case 'category':
    case 'categories':
      return values.category;
    case 'primary_category':
      return values.primaryCategory || values.category;
    case 'tag':
    case 'tags':
      return values.tags;
    case 'name':
    case 'post_author':
      return values.author;
    case 'focuskw':
    case 'keywords':
      return values.focusKeyword;
    case 'date':
    case 'post_date':
      return values.date;
    case 'currentyear':
    case 'current_year':
      return values.currentYear;
    default:
      // %%page%%, %%pagenumber%%, custom fields and any other: nothing a static page shows.
      return '';
  }
}

/** A title or description template with its variables replaced, white space collapsed, dangling separators off. */
export function expandSnippet(template: string, values: SnippetValues): string {
  const replaced = template
    .replace(/%%([a-z_]+)(?:\([^)%]*\))?%%/gi, (_, name: string) => value(name, values))
    .replace(/%([a-z_]+)(?:\([^)%]*\))?%/gi, (_, name: string) => value(name, values));
  // Separators are tokens of their own: a hyphen inside a word is text, not a separator.
  const sep = `[${SEPARATOR}|\\-—·•»«~]`;
  return replaced
    .replace(/\s+/g, ' ')
    .trim()
    .replace(new RegExp(`(^|\\s)(${sep})(?:\\s+${sep})+(?=\\s|$)`, 'g'), '$1$2')
    .replace(new RegExp(`^(?:${sep}(?:\\s+|$))+|(?:(?:^|\\s+)${sep})+$`, 'g'), '')
    .trim();
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** WordPress's default date format (`F j, Y`). */
export const wordpressDate = (date: Date) =>
  `${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}, ${date.getUTCFullYear()}`;
