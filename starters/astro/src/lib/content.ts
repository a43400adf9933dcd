import { QuireContent } from '@quire/client';
import { siteEnv } from '../../lib/env.mjs';

let client: QuireContent | null = null;

/** The content API, for what the server reads at request time (search, previews). */
export function content(): QuireContent {
  if (client) return client;
  const env = siteEnv();
  client = new QuireContent({ contentKey: env.contentKey, baseUrl: env.quireUrl, cache: false });
  return client;
}
