import { describeEachDialect } from '../helpers/database.js';
import { mediaUploadSuite } from './media-upload.suite.js';

describeEachDialect('media uploads and files, local storage', (dialect) => mediaUploadSuite(dialect, 'local'));
