/** Now, as every timestamp is stored and returned: ISO 8601, UTC, milliseconds, `Z`. */
export function nowIso(): string {
  return new Date().toISOString();
}

/** Normalises an accepted ISO 8601 date-time (any offset) to the stored form. */
export function toIso(value: string): string {
  return new Date(value).toISOString();
}
