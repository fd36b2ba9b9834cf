// How an import problem names its place: record by index and slug, then the field ("churches[1] (bad-church).events[0] (e1).start").

/** The field that names an item of each list of the document, shown beside its index. */
const ITEM_KEYS: Readonly<Record<string, string>> = {
  churches: 'slug',
  events: 'slug',
  posts: 'slug',
  library: 'slug',
  products: 'slug',
  variants: 'name',
  albums: 'albumId',
};

/**
 * The label of the value at a JSON pointer of `document`: list items by index, with their slug
 * (or name, or albumId) when it is a string, so the operator finds the record in the file.
 *
 * @example fieldLabel(document, '/churches/1/events/0/start') // 'churches[1] (bad-church).events[0] (e1).start'
 */
export function fieldLabel(document: unknown, pointer: string): string {
  let label = '';
  let value = document;
  let field = '';
  for (const segment of pointer.split('/').slice(1).map(unescapeSegment)) {
    value = isObject(value) || Array.isArray(value) ? (value as Record<string, unknown>)[segment] : undefined;
    if (/^\d+$/.test(segment) && field !== '') {
      const key = ITEM_KEYS[field];
      const id = key !== undefined && isObject(value) ? value[key] : undefined;
      label += `[${segment}]${typeof id === 'string' ? ` (${id})` : ''}`;
    } else {
      label += label === '' ? segment : `.${segment}`;
    }
    field = segment;
  }
  return label === '' ? 'document' : label;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function unescapeSegment(segment: string): string {
  return segment.replaceAll('~1', '/').replaceAll('~0', '~');
}
