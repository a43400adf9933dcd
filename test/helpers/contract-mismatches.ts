/*
 * The mismatches the contract check (helpers/contract.ts) found since the last test ended. Kept apart from the
 * check itself so that the setup file every test file runs (contract-setup.ts) loads this alone: a unit test that
 * builds no app does not load the OpenAPI documents and their validator.
 */

const pending: string[] = [];

export function recordContractMismatch(mismatch: string): void {
  pending.push(mismatch);
}

/** The mismatches recorded since the last call, and forgets them. */
export function takeContractMismatches(): string[] {
  return pending.splice(0, pending.length);
}
