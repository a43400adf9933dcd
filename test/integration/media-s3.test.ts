import { describe } from 'vitest';
import { mediaUploadSuite } from './media-upload.suite.js';

// The same suite against a real S3-compatible server (s3rver), on SQLite: the storage is what differs.
describe('media uploads and files, S3 storage [sqlite]', () => mediaUploadSuite('sqlite', 's3'));
