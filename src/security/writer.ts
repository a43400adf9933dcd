/**
 * Who writes, as the change events record it: a key's creator and the key, a dashboard user (no key), or
 * the command line (neither). An Actor is one.
 */
export interface Writer {
  workspaceId: string;
  userId: string | null;
  apiKeyId: string | null;
  /**
   * Takes the write's answer before the write commits. The HTTP layer serializes it here (server/sealed-answer.ts):
   * an answer that cannot be written out throws, and the write rolls back instead of committing behind a 500.
   */
  seal?: (answer: unknown) => void;
  /**
   * The write is a step of its own in the history of what it writes (a restore: writes/revision-windows.ts):
   * its revision is never merged into the one before, and none after is merged into it.
   */
  ownRevision?: true;
}
