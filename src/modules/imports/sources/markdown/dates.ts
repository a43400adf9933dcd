/*
 * The dates front matter holds, as the generators accept them: a TOML or YAML date value, an ISO 8601 string, a
 * bare day (`2024-01-02`), and Jekyll's `2024-01-02 10:00:00 +0100`. A date with no offset is taken as UTC (the
 * site's time zone is in its configuration, which the folder may not hold).
 */

const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

function offsetOf(zone: string | undefined): string {
  if (zone === undefined || zone.toUpperCase() === 'Z') return 'Z';
  const digits = zone.slice(1).replace(':', '');
  return `${zone[0]}${digits.slice(0, 2)}:${digits.slice(2, 4) || '00'}`;
}

/** The instant a front matter value names, or null when it names none. */
export function parseDate(value: unknown): Date | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value;
  if (typeof value !== 'string') return null;
  const match = DATE_TIME.exec(value.trim());
  if (match === null) return writtenOut(value.trim());
  const [, year, month, day, hour = '00', minute = '00', second = '00', fraction = '', zone] = match;
  const iso = `${year}-${month}-${day}T${hour}:${minute}:${second}${fraction}${offsetOf(zone)}`;
  const date = new Date(iso);
  // `2024-02-30` parses into March; a day that does not exist is no date.
  if (Number.isNaN(date.getTime()) || Number(day) > 31 || Number(month) > 12) return null;
  const check = new Date(`${year}-${month}-${day}T00:00:00Z`);
  return check.getUTCDate() === Number(day) ? date : null;
}

/**
 * A date written out in English (`Jul 08 2022`, `July 8, 2022`), as Astro's starter writes `pubDate` and reads it
 * with `new Date()`. Read the same way, at UTC; only with a month's name and a four-digit year, so that the
 * engine's guesses at other shapes (`1/2/3`) are not taken.
 */
function writtenOut(value: string): Date | null {
  if (!/\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b/i.test(value) || !/\b\d{4}\b/.test(value))
    return null;
  const hasZone = /(?:\b(?:utc|gmt|z)\b|[+-]\d{2}:?\d{2})\s*$/i.test(value);
  const time = Date.parse(hasZone ? value : `${value} UTC`);
  return Number.isNaN(time) ? null : new Date(time);
}

/** Jekyll's post names: `2024-01-02-hello.md` holds the day and the slug. */
export function datedName(name: string): { date: string; rest: string } | null {
  const match = /^(\d{4}-\d{2}-\d{2})-(.+)$/.exec(name);
  return match === null ? null : { date: match[1]!, rest: match[2]! };
}
