// The one paging rule of posts, library and search: page 0..1,000,000, size 1..50, canonical digits, 400 naming the parameter.
import { describe, expect, it } from 'vitest';
import { pageEnvelope, parsePageRequest } from '../../src/http/paging.ts';
import { ApiError } from '../../src/http/problem.ts';

function refusal(query: Record<string, unknown>): ApiError {
  try {
    parsePageRequest(query);
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error(`accepted ${JSON.stringify(query)}`);
}

describe('page and size', () => {
  it('default to page 0 and size 10', () => {
    expect(parsePageRequest({})).toEqual({ page: 0, size: 10 });
  });

  it('accept the bounds', () => {
    expect(parsePageRequest({ page: '1000000', size: '50' })).toEqual({ page: 1_000_000, size: 50 });
    expect(parsePageRequest({ page: '0', size: '1' })).toEqual({ page: 0, size: 1 });
  });

  it.each([
    [{ size: '51' }, 'size'],
    [{ size: '0' }, 'size'],
    [{ size: '-1' }, 'size'],
    [{ size: '05' }, 'size'],
    [{ size: ' 5' }, 'size'],
    [{ page: '1000001' }, 'page'],
    [{ page: '01' }, 'page'],
    [{ page: '+1' }, 'page'],
    [{ page: '1e3' }, 'page'],
    [{ page: '1.0' }, 'page'],
    [{ page: '' }, 'page'],
    [{ page: ['1', '2'] }, 'page'],
  ])('refuse %j with a 400 naming %s', (query, parameter) => {
    const error = refusal(query);
    expect(error.problem).toMatchObject({ status: 400, type: 'invalid-parameter', title: 'Invalid parameter', parameter });
  });
});

describe('the page envelope', () => {
  it('counts pages by rounding up, and keeps the request', () => {
    expect(pageEnvelope(['a'], { page: 2, size: 10 }, 21)).toEqual({ items: ['a'], page: 2, size: 10, totalItems: 21, totalPages: 3 });
    expect(pageEnvelope([], { page: 0, size: 10 }, 0)).toEqual({ items: [], page: 0, size: 10, totalItems: 0, totalPages: 0 });
  });
});
