// One pass over every endpoint in every language, so the service's peak RSS is taken with everything in use.
import type { Lang } from '../../build/contract/books.ts';

export interface CoverageResult {
  requests: number;
  /** Paths that did not answer 200, with their status. */
  failures: { path: string; status: number }[];
}

/** A demo church with events, posts, library, store and albums (data/demo/churches.json). */
export const DEMO_CHURCH = 'grace-paris';

/** A passage per language, written as its readers write it. */
const PASSAGES: Readonly<Record<Lang, string>> = {
  fr: 'Jean 3.16-18; Ps 23',
  en: 'John 3:16-18; Ps 23',
  es: 'Juan 3:16-18; Sal 23',
  pt: 'João 3:16-18; Sl 23',
  nl: 'Johannes 3:16-18; Ps 23',
};

/**
 * GETs every Bible endpoint in each language (versions, books, chapter, range, verse, passage,
 * search), every church endpoint with the key, and the documentation and portal pages.
 */
export async function visitEveryEndpoint(baseUrl: string, key: string, langs: readonly Lang[]): Promise<CoverageResult> {
  const failures: CoverageResult['failures'] = [];
  let requests = 0;
  const get = async (path: string, headers: Record<string, string> = {}): Promise<Response> => {
    requests++;
    const response = await fetch(`${baseUrl}${path}`, { headers });
    if (response.status !== 200) failures.push({ path, status: response.status });
    return response;
  };
  await (await get('/api/v1/bible/versions')).arrayBuffer();
  for (const lang of langs) {
    const query = `lang=${lang}`;
    for (const path of [
      `/api/v1/bible/books?${query}`,
      `/api/v1/bible/GEN/1?${query}`,
      `/api/v1/bible/JHN/3/16/18?${query}`,
      `/api/v1/bible/PSA/23/1?${query}`,
      `/api/v1/bible/passage?ref=${encodeURIComponent(PASSAGES[lang])}&${query}`,
      `/api/v1/bible/search?q=${encodeURIComponent(PASSAGES[lang].split(';')[0]!)}&${query}`,
    ]) {
      await (await get(path)).arrayBuffer();
    }
  }
  const auth = { authorization: `Bearer ${key}` };
  const church = `/api/public/v1/churches/${DEMO_CHURCH}`;
  for (const path of [church, `${church}/events`, `${church}/posts`, `${church}/live`, `${church}/library`, `${church}/store`]) {
    await (await get(path, auth)).arrayBuffer();
  }
  const albums = (await (await get(`${church}/gallery`, auth)).json()) as { albumId: string }[];
  if (albums[0]) await (await get(`${church}/gallery/${encodeURIComponent(albums[0].albumId)}/photos`, auth)).arrayBuffer();
  for (const path of ['/api/openapi.json', '/docs', '/docs/problems', '/portal/sign-in']) await (await get(path)).arrayBuffer();
  return { requests, failures };
}
