// The refusal a portal form shows next to one of its inputs; account rules' refusals are mapped onto inputs here too.
import { AccountRefusal } from '../accounts/refusal.ts';
import { type FieldErrors, FORM_ERROR } from './views/forms.ts';

/**
 * A refusal of the portal's own rules (passwords, links), for one input of the form or the whole form.
 *
 * @example throw new FormError('password', 'Use at least 12 characters.')
 */
export class FormError extends Error {
  readonly field: string;
  constructor(field: string, message: string) {
    super(message);
    this.name = 'FormError';
    this.field = field;
  }
}

/** The input an account refusal is about, by its code. */
const REFUSAL_FIELDS: Record<string, string> = {
  'invalid-email': 'email',
  'reserved-email': 'email',
  'duplicate-email': 'email',
  'invalid-name': 'name',
};

/** The errors to show for a refusal, or undefined when the error is not a refusal (it is then rethrown by the caller). */
export function formErrors(error: unknown): FieldErrors | undefined {
  if (error instanceof FormError) return { [error.field]: error.message };
  if (error instanceof AccountRefusal) return { [REFUSAL_FIELDS[error.code] ?? FORM_ERROR]: error.message };
  return undefined;
}
