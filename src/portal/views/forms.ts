// Form pieces every portal form uses: the CSRF field, labelled inputs with their error, the error summary.
import { html, type SafeHtml } from './html.ts';

/** Errors of a submitted form, by input name, as the pages show them next to the input. */
export type FieldErrors = Partial<Record<string, string>>;

export interface FieldOptions {
  name: string;
  label: string;
  type?: 'text' | 'email' | 'password';
  value?: string;
  autocomplete?: string;
  hint?: string;
  errors?: FieldErrors;
  required?: boolean;
  maxLength?: number;
  minLength?: number;
}

/** The key of an error about the whole form rather than one input. */
export const FORM_ERROR = 'form';

/** The hidden input csrf-sync reads (`_csrf`). */
export function csrfField(token: string): SafeHtml {
  return html`<input type="hidden" name="_csrf" value="${token}">`;
}

/** A labelled input; its hint and error are tied to it with aria-describedby. */
export function field(options: FieldOptions): SafeHtml {
  const { name, label, type = 'text', value, autocomplete, hint, errors = {}, required = true, maxLength, minLength } = options;
  const id = `field-${name}`;
  const error = errors[name];
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return html`<div class="field${error ? ' field-error' : ''}">
<label for="${id}">${label}</label>
${hint && html`<p class="hint" id="${id}-hint">${hint}</p>`}
${error && html`<p class="error" id="${id}-error">${error}</p>`}
<input id="${id}" name="${name}" type="${type}"${value !== undefined && type !== 'password' ? html` value="${value}"` : ''}${autocomplete ? html` autocomplete="${autocomplete}"` : ''}${required ? html` required` : ''}${maxLength ? html` maxlength="${maxLength}"` : ''}${minLength ? html` minlength="${minLength}"` : ''}${described ? html` aria-describedby="${described}"` : ''}${error ? html` aria-invalid="true"` : ''}>
</div>`;
}

/** A summary at the top of a refused form, so a screen reader hears what went wrong first. */
export function errorSummary(errors: FieldErrors): SafeHtml {
  const entries = Object.entries(errors).filter((entry): entry is [string, string] => entry[1] !== undefined);
  if (entries.length === 0) return html``;
  return html`<div class="error-summary" role="alert">
<h2>There is a problem</h2>
<ul>${entries.map(([name, message]) => (name === FORM_ERROR ? html`<li>${message}</li>` : html`<li><a href="#field-${name}">${message}</a></li>`))}</ul>
</div>`;
}
