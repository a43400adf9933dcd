// @adobe/structured-data-validator ships no types; this is the part of its API the JSON-LD checks use.
declare module '@adobe/structured-data-validator' {
  export interface ValidationPathElement {
    type?: string | string[];
    property?: string;
    index?: number;
    length?: number;
  }
  export interface ValidationIssue {
    issueMessage: string;
    severity: 'ERROR' | 'WARNING';
    path?: ValidationPathElement[];
    fieldNames?: string[];
    rootType?: string;
    dataFormat?: string;
    errorType?: string;
    source?: string;
  }
  export interface HandlerOptions {
    dataFormat: string;
    path: ValidationPathElement[];
    type: string;
    schemaOrgJson: unknown;
  }
  export interface Handler {
    validate(data: Record<string, unknown>): ValidationIssue[] | Promise<ValidationIssue[]>;
  }
  export type HandlerLoader = () => Promise<{ default: new (options: HandlerOptions) => Handler }>;
  /** What @marbec/web-auto-extractor gives: root items grouped by @type, per format, and its parse errors. */
  export interface ExtractedData {
    jsonld?: Record<string, Array<Record<string, unknown>>>;
    microdata?: Record<string, Array<Record<string, unknown>>>;
    rdfa?: Record<string, Array<Record<string, unknown>>>;
    errors?: Array<{ message: string; format: string; source?: string }>;
  }
  export default class Validator {
    constructor(schemaOrgJson?: unknown);
    debug: boolean;
    registeredHandlers: Record<string, HandlerLoader[]>;
    validate(data: ExtractedData): Promise<ValidationIssue[]>;
  }
}
