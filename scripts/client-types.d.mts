/** See client-types.mjs. */
export function clientTypes(document: object): Promise<string>;
