/**
 * A session's device in words, from the User-Agent header it signed in with: "Chrome on Linux", "Safari on
 * iPhone". A header says what it likes, so this is a hint for recognising one's own devices, never a fact to
 * rely on. No library: the few browsers and systems people sign in with are enough, anything else is named
 * as far as it is known ("Firefox", "Unknown browser on Android") or "Unknown device".
 */

/** Browsers by their token, in the order they must be tried: Edge, Opera and Samsung say "Chrome" as well. */
const BROWSERS: Array<[RegExp, string]> = [
  [/\b(?:Edg|EdgA|EdgiOS|Edge)\//, 'Edge'],
  [/\b(?:OPR|OPiOS)\/|\bOpera\b/, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bVivaldi\//, 'Vivaldi'],
  [/\b(?:Firefox|FxiOS)\//, 'Firefox'],
  [/\bCriOS\//, 'Chrome'],
  [/\bChromium\//, 'Chromium'],
  [/\b(?:Headless)?Chrome\//, 'Chrome'],
  // Safari names its version as Version/…; other WebKit shells (in-app browsers) do not.
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];

/** Systems, likewise in order: Android says "Linux", an iPhone says "like Mac OS X". */
const SYSTEMS: Array<[RegExp, string]> = [
  [/\biPhone\b|\biPod\b/, 'iPhone'],
  [/\biPad\b/, 'iPad'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b|\bX11\b/, 'Linux'],
];

const first = (userAgent: string, table: Array<[RegExp, string]>): string | null =>
  table.find(([pattern]) => pattern.test(userAgent))?.[1] ?? null;

export function deviceName(userAgent: string | null | undefined): string {
  const text = userAgent?.trim() ?? '';
  if (text === '') return 'Unknown device';
  const browser = first(text, BROWSERS);
  const system = first(text, SYSTEMS);
  if (browser && system) return `${browser} on ${system}`;
  if (browser) return browser;
  if (system) return `Unknown browser on ${system}`;
  return 'Unknown device';
}
