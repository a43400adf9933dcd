import path from 'node:path';
import type { Config, MediaStorageConfig } from '../../../config.js';
import type { MediaStorage } from './driver.js';
import { localStorage } from './local.js';

export type { ByteRange, MediaStorage, StoredFile } from './driver.js';

export function createMediaStorage(config: Pick<Config, 'dataDir' | 'mediaStorage'>): MediaStorage {
  const settings = config.mediaStorage;
  return settings.driver === 's3' ? deferredS3(settings) : localStorage(path.join(config.dataDir, 'media'));
}

/**
 * The AWS SDK is slow to import, so a server on local storage never loads it
 * and one on S3 loads it with its first media request.
 */
function deferredS3(settings: Extract<MediaStorageConfig, { driver: 's3' }>): MediaStorage {
  let loaded: Promise<MediaStorage> | undefined;
  const storage = () => (loaded ??= import('./s3.js').then((module) => module.s3Storage(settings)));
  return {
    put: async (key, body, options) => (await storage()).put(key, body, options),
    get: async (key, range) => (await storage()).get(key, range),
    delete: async (key) => (await storage()).delete(key),
  };
}
