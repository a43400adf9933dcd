import { describe, expect, it } from 'vitest';
import { deviceName } from '../../dashboard/src/screens/account/device.js';
import { timeAgo } from '../../dashboard/src/screens/account/time.js';

// Real User-Agent headers, as browsers sent them.
const AGENTS: Array<[string, string]> = [
  [
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
    'Chrome on Linux',
  ],
  // Playwright's headless Chromium, as the browser tests sign in.
  [
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.6778.33 Safari/537.36',
    'Chrome on Linux',
  ],
  [
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
    'Safari on iPhone',
  ],
  ['Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:125.0) Gecko/20100101 Firefox/125.0', 'Firefox on Windows'],
  [
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.2478.51',
    'Edge on Windows',
  ],
  [
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
    'Safari on macOS',
  ],
  [
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 OPR/109.0.0.0',
    'Opera on macOS',
  ],
  [
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.6367.82 Mobile Safari/537.36',
    'Chrome on Android',
  ],
  [
    'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/24.0 Chrome/117.0.0.0 Mobile Safari/537.36',
    'Samsung Internet on Android',
  ],
  [
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/124.0.6367.88 Mobile/15E148 Safari/604.1',
    'Chrome on iPhone',
  ],
  [
    'Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/125.0 Mobile/15E148 Safari/605.1.15',
    'Firefox on iPad',
  ],
  [
    'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
    'Chrome on ChromeOS',
  ],
];

describe('the device a session was signed in from, in words', () => {
  it.each(AGENTS)('reads %s as %s', (userAgent, expected) => {
    expect(deviceName(userAgent)).toBe(expected);
  });

  it('names as much as it knows, and says so when it knows nothing', () => {
    expect(deviceName(null)).toBe('Unknown device');
    expect(deviceName(undefined)).toBe('Unknown device');
    expect(deviceName('   ')).toBe('Unknown device');
    expect(deviceName('curl/8.5.0')).toBe('Unknown device');
    expect(deviceName('node')).toBe('Unknown device');
    // An in-app browser on an iPhone: WebKit without Safari's Version/ token.
    expect(
      deviceName('Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148'),
    ).toBe('Unknown browser on iPhone');
    expect(deviceName('Mozilla/5.0 (compatible) Gecko/20100101 Firefox/125.0')).toBe('Firefox');
  });
});

describe('how long ago a session was last active', () => {
  const now = Date.parse('2025-06-15T12:00:00Z');
  const ago = (ms: number) => timeAgo(new Date(now - ms).toISOString(), now);
  const MINUTE = 60_000;

  it('says just now within a minute, and for a clock a little ahead', () => {
    expect(ago(0)).toBe('just now');
    expect(ago(59_000)).toBe('just now');
    expect(ago(-30_000)).toBe('just now');
  });

  it('counts minutes, hours and days up to a week', () => {
    expect(ago(MINUTE)).toBe('1 minute ago');
    expect(ago(5 * MINUTE + 30_000)).toBe('5 minutes ago');
    expect(ago(60 * MINUTE)).toBe('1 hour ago');
    expect(ago(23 * 60 * MINUTE)).toBe('23 hours ago');
    expect(ago(24 * 60 * MINUTE)).toBe('yesterday');
    expect(ago(6 * 24 * 60 * MINUTE)).toBe('6 days ago');
  });

  it('leaves a week or more, and what it cannot read, to a date', () => {
    expect(ago(7 * 24 * 60 * MINUTE)).toBeNull();
    expect(timeAgo('not a date', now)).toBeNull();
  });
});
