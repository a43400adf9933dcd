import type { Command, CommandInput } from './command.js';
import { siteInit, type SiteInitResult } from './site-init.js';

const value = (input: CommandInput, name: string) => {
  const flag = input.flags[name];
  return typeof flag === 'string' && flag !== '' ? flag : undefined;
};

/** `quire site init`: a site from the starter (docs/starter.md); it needs no data dir, only a Quire to point at. */
export const SITE_COMMANDS: Record<string, Command> = {
  'site init': {
    usage: 'quire site init DIR --quire-url URL (--api-key K | --content-key K) [--site-url http://localhost:4321]',
    options: ['quire-url', 'api-key', 'content-key', 'site-url'],
    positional: 'dir',
    required: ['dir', 'quire-url'],
    runWithoutRuntime: (_config, input) =>
      siteInit({
        dir: value(input, 'dir')!,
        quireUrl: value(input, 'quire-url')!,
        siteUrl: value(input, 'site-url') ?? 'http://localhost:4321',
        ...(value(input, 'api-key') ? { apiKey: value(input, 'api-key')! } : {}),
        ...(value(input, 'content-key') ? { contentKey: value(input, 'content-key')! } : {}),
      }),
    run: () => Promise.reject(new Error('quire site init runs without a data dir')),
    human: (result: SiteInitResult) =>
      [
        `A new site is in ${result.dir}, reading Quire with a content key (${result.contentKey}).`,
        result.settingsToSet === null
          ? 'Check that the site settings name the site URL and the URL patterns below (the dashboard, Site settings).'
          : Object.keys(result.settingsToSet).length > 0
            ? `Still to set in the site settings: ${Object.keys(result.settingsToSet).join(', ')} (first step below).`
            : 'The site settings already name everything the site needs.',
        'Next:',
        ...result.next.map((step) => `  ${step}`),
      ].join('\n'),
  },
};
