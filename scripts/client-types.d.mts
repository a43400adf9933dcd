/** See client-types.mjs. */
export function clientTypes(document: object): Promise<string>;
export function contentClientTypes(document: object): Promise<string>;
export const DASHBOARD_DOCUMENT: string;
export const DASHBOARD_TYPES: string;
export function dashboardTypes(document: object): Promise<string>;
export function dashboardDocumentText(document: object): Promise<string>;
