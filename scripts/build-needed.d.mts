/** See build-needed.mjs. */
export interface BuildPart {
  name: 'server' | 'dashboard' | 'client';
  script: string;
  sources: string[];
  outputs: string[];
  stamp: string;
}
export const BUILD_PARTS: readonly BuildPart[];
export function newestMtimeMs(target: string, skip?: readonly string[]): number;
export function buildNeeded(root: string, name?: BuildPart['name']): 'missing' | 'stale' | null;
