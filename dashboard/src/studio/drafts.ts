import type { EditableFields } from './post-fields';

export type { EditableFields };

/** What the editor keeps in localStorage between a keystroke and the save that follows it. */
export interface LocalDraft {
  fields: EditableFields;
  /** The version (updatedAt) the writer was editing; null before the first save. */
  baseVersion: string | null;
  at: string;
}

export function draftKey(workspaceId: string, kind: 'post' | 'page', id: string | null): string {
  return `quire.studio.${workspaceId}.${kind}.${id ?? 'new'}`;
}

// Storage can be full or refused (private windows): the server copy still holds; a lost local copy is only a
// lost safety net, so failures are swallowed rather than shown on every keystroke.
export function readDraft(key: string): LocalDraft | null {
  try {
    const text = window.localStorage.getItem(key);
    return text ? (JSON.parse(text) as LocalDraft) : null;
  } catch {
    return null;
  }
}

export function writeDraft(key: string, draft: LocalDraft): void {
  try {
    window.localStorage.setItem(key, JSON.stringify(draft));
  } catch {
    /* see readDraft */
  }
}

export function clearDraft(key: string): void {
  try {
    window.localStorage.removeItem(key);
  } catch {
    /* see readDraft */
  }
}
