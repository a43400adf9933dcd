import { describe } from 'vitest';
import { mediaDerivativesSuite } from './media-derivatives.suite.js';
import { mediaSizesSuite } from './media-sizes.suite.js';

// The same suites against a real S3-compatible server (s3rver), on SQLite: the storage is what differs.
describe('responsive images, S3 storage [sqlite]', () => mediaDerivativesSuite('sqlite', 's3'));
describe('image sizes a layout asks for, S3 storage [sqlite]', () => mediaSizesSuite('sqlite', 's3'));
