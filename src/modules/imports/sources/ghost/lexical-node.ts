/** A node of a Lexical document as JSON: read field by field, nothing assumed of its shape. */
export type LexicalNode = Record<string, unknown>;

export const isNode = (value: unknown): value is LexicalNode =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A string field, or '' when it is missing or not a string. */
export const field = (node: LexicalNode, name: string): string =>
  typeof node[name] === 'string' ? (node[name] as string) : '';

export const childrenOf = (node: LexicalNode): LexicalNode[] =>
  Array.isArray(node.children) ? node.children.filter(isNode) : [];
