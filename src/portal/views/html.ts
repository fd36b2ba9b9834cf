// The one place portal HTML is escaped: an `html` template tag that escapes every value unless it is already SafeHtml.

/** HTML that is safe to insert as is: made only by `html` (escaped) or `trustedHtml` (written by us). */
export class SafeHtml {
  readonly value: string;
  constructor(value: string) {
    this.value = value;
  }
  toString(): string {
    return this.value;
  }
}

type HtmlValue = SafeHtml | string | number | boolean | null | undefined | readonly HtmlValue[];

/**
 * Builds HTML from a template: strings and numbers are escaped, SafeHtml is kept, arrays are
 * joined, and null, undefined and false render nothing (for `${condition && html`…`}`).
 *
 * @example html`<p>Hello, ${developer.name}</p>` // a name like "<b>" arrives as "&lt;b&gt;"
 */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0];
  values.forEach((value, index) => {
    out += render(value) + strings[index + 1];
  });
  return new SafeHtml(out);
}

/** Marks a string written by this code base (never by a user) as HTML. */
export function trustedHtml(value: string): SafeHtml {
  return new SafeHtml(value);
}

/** Escapes text for an element's content or a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ESCAPES[character]);
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}
