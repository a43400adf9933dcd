import { afterEach } from 'vitest';
import { takeContractMismatches } from './contract-mismatches.js';

// Fails the test whose requests got answers the OpenAPI document does not describe (helpers/contract.ts).
afterEach(() => {
  const mismatches = takeContractMismatches();
  if (mismatches.length > 0) {
    throw new Error(
      `${mismatches.length} response(s) do not match the OpenAPI document:\n- ${mismatches.join('\n- ')}`,
    );
  }
});
