import { AppError, invalid } from '../../errors.js';
import { normalizeEmail } from '../accounts/accounts.service.js';

/** An email from a request body, normalized; a bad one is a validation issue that points at the field. */
export function emailField(value: string, path = '/email'): string {
  try {
    return normalizeEmail(value);
  } catch (error) {
    if (error instanceof AppError) throw invalid([{ in: 'body', path, message: error.message }]);
    throw error;
  }
}
