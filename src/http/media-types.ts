// The choice of a media type by Accept, among those an endpoint offers (JSON first: the default for `*/*` and for no Accept).
import Negotiator from 'negotiator';

/** Choices made, by offer list and header: clients send a handful of different Accept values. */
const chosenTypes = new Map<string, string | undefined>();

/** Different headers remembered at most; past it the map starts again (the header is the client's to vary). */
const REMEMBERED_CHOICES = 256;

/**
 * The media type to answer with, chosen by negotiator (the library behind Express's req.accepts):
 * the offered type with the highest q-value, then the most specific match, ties broken by the
 * order of `offered` (its first is the default: no Accept, or a wildcard such as `application/*`, gets it);
 * undefined when the header accepts none of them (the caller answers 406).
 *
 * @example chooseMediaType(['application/json', 'text/calendar'], 'text/calendar') // 'text/calendar'
 */
export function chooseMediaType(offered: readonly string[], accept: string | undefined): string | undefined {
  if (accept === undefined || accept.trim() === '') return offered[0];
  const key = `${offered.join(' ')}\n${accept}`;
  if (chosenTypes.has(key)) return chosenTypes.get(key);
  const chosen = new Negotiator({ headers: { accept } }).mediaType(offered as string[]);
  if (chosenTypes.size >= REMEMBERED_CHOICES) chosenTypes.clear();
  chosenTypes.set(key, chosen);
  return chosen;
}
