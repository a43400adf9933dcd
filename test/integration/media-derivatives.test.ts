import { describeEachDialect } from '../helpers/database.js';
import { mediaDerivativesSuite } from './media-derivatives.suite.js';
import { mediaSizesSuite } from './media-sizes.suite.js';

describeEachDialect('responsive images, local storage', (dialect) => mediaDerivativesSuite(dialect, 'local'));
describeEachDialect('image sizes a layout asks for, local storage', (dialect) => mediaSizesSuite(dialect, 'local'));
