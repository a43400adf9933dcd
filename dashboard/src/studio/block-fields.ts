import type { BlockType, EditorBlock } from './model';

export interface FieldsProps {
  block: EditorBlock;
  /** Errors of this block by the rest of their JSON Pointer ("text", "items/2/answer"). */
  errors: Record<string, string> | undefined;
  workspaceId: string;
  onChange(block: EditorBlock): void;
}

/** The fields of one block type: its block, its errors and the change of it. */
export interface TypedFieldsProps<T extends BlockType> {
  block: Extract<EditorBlock, { type: T }>;
  errors: Record<string, string>;
  onChange(block: EditorBlock): void;
}

/** The block with some of its fields replaced. */
export function changed(block: EditorBlock, changes: Record<string, unknown>): EditorBlock {
  return { ...block, ...changes } as EditorBlock;
}

/** Optional text fields are left out rather than stored empty, so a cleared caption reads as no caption. */
export function optional<T extends object, K extends string>(block: T, key: K, value: string): T {
  const next = { ...block } as Record<string, unknown>;
  if (value === '') delete next[key];
  else next[key] = value;
  return next as T;
}
