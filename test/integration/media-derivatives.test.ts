import { describeEachDialect } from '../helpers/database.js';
import { mediaDerivativesSuite } from './media-derivatives.suite.js';

describeEachDialect('responsive images, local storage', (dialect) => mediaDerivativesSuite(dialect, 'local'));
