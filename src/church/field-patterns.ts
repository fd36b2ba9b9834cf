// Patterns of church fields, shared by the import document (what is accepted) and the response schemas (what is sent).

/** Lower-case letters, digits and hyphens, 1-100 characters, not starting or ending with a hyphen. */
export const SLUG_PATTERN = '^[a-z0-9](?:[a-z0-9-]{0,98}[a-z0-9])?$';

/** ISO 3166-1 alpha-2, upper case ("FR"). */
export const COUNTRY_PATTERN = '^[A-Z]{2}$';

/** BCP 47 language code ("fr", "pt-BR"). */
export const LANGUAGE_PATTERN = '^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$';

/** A local wall time without seconds or offset, `YYYY-MM-DDTHH:MM`. */
export const LOCAL_DATE_TIME_PATTERN = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}$';

/** A UTC instant to the second, `YYYY-MM-DDTHH:MM:SSZ`. */
export const UTC_INSTANT_PATTERN = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z$';

/** ISO 4217 currency code ("EUR"). */
export const CURRENCY_PATTERN = '^[A-Z]{3}$';
