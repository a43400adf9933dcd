/**
 * What the server's validator says (ajv's words, or a service's "siteUrl must be …"), said for a person
 * reading it under the field; null for the noise a union adds ("must be null", "must match a schema in anyOf").
 */
export function inWords(message: string, field: string): string | null {
  if (/^must (be null|match a schema in anyOf|match exactly one schema in oneOf)$/.test(message)) return null;
  const known: Array<[RegExp, (match: RegExpMatchArray) => string]> = [
    [/^must match format "uuid"$/, () => 'Enter an id: 36 letters, digits and dashes, such as 3f2c0a1e-…'],
    [/^must match format "(uri|url)"$/, () => 'Enter a full address, starting with https://'],
    [/^must match format "email"$/, () => 'Enter an email address, such as you@example.com.'],
    [/^must match format "date-time"$/, () => 'Enter a date and time.'],
    [/^must NOT have fewer than 1 characters$/, () => 'This cannot be empty.'],
    [/^must NOT have fewer than (\d+) characters$/, (m) => `Use at least ${m[1]} characters.`],
    [/^must NOT have more than (\d+) characters$/, (m) => `Use at most ${m[1]} characters.`],
    [/^must NOT have fewer than (\d+) items$/, (m) => `Choose at least ${m[1]}.`],
    [/^must NOT have more than (\d+) items$/, (m) => `Choose at most ${m[1]}.`],
    [/^must match pattern /, () => 'This contains characters that are not allowed here.'],
    [/^must be integer$/, () => 'Enter a whole number.'],
    [/^must be >= (-?\d+)$/, (m) => `Enter ${m[1]} or more.`],
    [/^must be equal to one of the allowed values$/, () => 'Choose one of the listed values.'],
    [/^must have required property/, () => 'This is required.'],
  ];
  for (const [pattern, say] of known) {
    const match = message.match(pattern);
    if (match) return say(match);
  }
  // A service's own sentence names the field by its API name ("siteUrl must be …"): the label already does.
  const sentence = message.startsWith(`${field} `) ? message.slice(field.length + 1) : message;
  const capitalized = sentence.charAt(0).toUpperCase() + sentence.slice(1);
  return /[.!?]$/.test(capitalized) ? capitalized : `${capitalized}.`;
}

/** The words for a value over its limit, said before sending as the server's refusal says them after. */
export const tooLong = (max: number): string => `Use at most ${max.toLocaleString()} characters.`;
