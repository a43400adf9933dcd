// The server's shapes of an import, as types only (STYLE.md): nothing of src/ is bundled.
export type { ImportReport, ItemReport } from '../../../../src/modules/imports/import-report.js';
export type { ImportFormat } from '../../../../src/modules/imports/import-source.js';
export type { ImportLine } from '../../../../src/modules/imports/imports.schemas.js';
