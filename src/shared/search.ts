/**
 * The folded form `q` and the stored search column share: NFC, then Unicode lowercase (so `É` finds
 * `é` on SQLite too, whose lower() knows only ASCII).
 */
export function foldForSearch(text: string): string {
  return text.normalize('NFC').toLowerCase();
}

export function searchText(...fields: Array<string | null | undefined>): string {
  return foldForSearch(fields.filter((field) => field).join('\n'));
}
