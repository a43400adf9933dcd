/**
 * The stored name of an upload: the client's base name folded to `a-z0-9` words joined by `-` (no
 * path, no dots, nothing a shell, a URL or a file system treats specially), then the extension of
 * the type sniffed from the bytes, whatever extension the client gave.
 */
export function safeFilename(clientName: string | undefined, extension: string): string {
  const base = (clientName ?? '').split(/[\\/]/).pop() ?? '';
  const stem = base
    .replace(/\.[^.]*$/, '')
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 100)
    .replace(/^-+|-+$/g, '');
  return `${stem || 'file'}.${extension}`;
}
