import { describe } from 'vitest';
import { mediaDerivativesSuite } from './media-derivatives.suite.js';

// The same suite against a real S3-compatible server (s3rver), on SQLite: the storage is what differs.
describe('responsive images, S3 storage [sqlite]', () => mediaDerivativesSuite('sqlite', 's3'));
