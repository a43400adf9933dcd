import { formatTime } from '../hooks';
import type { SaveState } from './useStudio';

/** The save state in words; `pending`: what is saved is a live copy's pending changes, not live yet. */
export function saveWords(save: SaveState, pending: boolean): string {
  switch (save.kind) {
    case 'idle':
      return 'No changes yet.';
    case 'unsaved':
      return 'Unsaved changes (kept on this device).';
    case 'saving':
      return 'Saving…';
    case 'saved':
      return pending ? `Saved ${formatTime(save.at)}, not live yet.` : `Saved ${formatTime(save.at)}.`;
    case 'error':
      return save.message;
    case 'conflict':
      return 'Not saved: someone else changed this since you opened it.';
  }
}

/** The notice after a conflict, by what moved on the server (useStudio's SaveState). */
export function conflictWords(
  reason: Extract<SaveState, { kind: 'conflict' }>['reason'],
  noun: string,
  live: boolean,
): string {
  if (!live)
    return `Someone else saved this ${noun} after you opened it. Compare their changes with yours and merge them, reload their version (yours here are dropped), or overwrite theirs with yours.`;
  switch (reason) {
    case 'live':
      return `The live ${noun} was changed after your changes were made on it, so Update would undo theirs. Compare their version with yours and merge them, reload theirs (your changes that are not live are dropped), or overwrite it with yours.`;
    case 'set':
      return `Someone else saved changes to this ${noun} that are not live yet, after you opened it. Compare theirs with yours and merge them, reload theirs (yours here are dropped), or overwrite theirs with yours.`;
    case 'gone':
      return `The changes you were editing were applied with Update or discarded elsewhere. Compare the live ${noun} with your copy and merge them, reload it (yours here are dropped), or overwrite it with yours.`;
  }
}
