// The answers kept per build: made once, never a refusal, and never more bytes than the bound.
import { describe, expect, test } from 'vitest';
import { problems } from '../../build/contract/problems.ts';
import { createAnswerCache } from '../../src/bible/answer-cache.ts';
import { prepareJson } from '../../src/http/cache.ts';
import { ApiError } from '../../src/http/problem.ts';

describe('answer cache', () => {
  test('an answer asked for again is the one made the first time, not made again', () => {
    const answers = createAnswerCache();
    let made = 0;
    const make = () => prepareJson({ made: ++made });
    const first = answers.remember('range en JHN 3 16 16', make);
    const again = answers.remember('range en JHN 3 16 16', make);
    expect(again).toBe(first);
    expect(made).toBe(1);
    expect(answers.remember('range en JHN 3 16 17', make).json.toString()).toBe('{"made":2}');
  });

  test('with a bound of 0 (BIBLE_ANSWER_CACHE_BYTES=0) every request makes its answer and nothing is held', async () => {
    const answers = createAnswerCache(0);
    let made = 0;
    const make = () => prepareJson({ made: ++made });
    answers.remember('range en JHN 3 16 16', make);
    expect(answers.remember('range en JHN 3 16 16', make).json.toString()).toBe('{"made":2}');
    expect((await answers.rememberAsync('search', async () => make())).json.toString()).toBe('{"made":3}');
    expect((await answers.rememberAsync('search', async () => make())).json.toString()).toBe('{"made":4}');
    expect(answers.heldBytes).toBe(0);
  });

  test('a refusal is not kept: the next request is answered afresh', async () => {
    const answers = createAnswerCache();
    const refuse = () => {
      throw new ApiError(problems.reversedVerseRange(17, 16));
    };
    expect(() => answers.remember('k', refuse)).toThrow(ApiError);
    expect(answers.heldBytes).toBe(0);
    expect(answers.remember('k', () => prepareJson({ ok: true })).json.toString()).toBe('{"ok":true}');
    await expect(answers.rememberAsync('s', () => Promise.reject(new Error('worker died')))).rejects.toThrow('worker died');
    expect((await answers.rememberAsync('s', async () => prepareJson([1]))).json.toString()).toBe('[1]');
  });

  test('however many different answers are made, what is kept stays under its byte bound', () => {
    const maxBytes = 64 * 1024;
    const answers = createAnswerCache(maxBytes);
    for (let index = 0; index < 2_000; index++) {
      answers.remember(`search en ${index}`, () => prepareJson({ index, text: 'Grâce’ '.repeat(20 + (index % 50)) }));
      expect(answers.heldBytes).toBeLessThanOrEqual(maxBytes);
    }
    expect(answers.heldBytes).toBeGreaterThan(maxBytes / 2);
    // The most recent are kept, the oldest gone.
    let remade = false;
    answers.remember('search en 1999', () => {
      remade = true;
      return prepareJson(null);
    });
    expect(remade).toBe(false);
    answers.remember('search en 0', () => {
      remade = true;
      return prepareJson(null);
    });
    expect(remade).toBe(true);
  });

  test('an answer larger than the whole bound is answered but not kept', () => {
    const answers = createAnswerCache(1024);
    const large = answers.remember('big', () => prepareJson('x'.repeat(4096)));
    expect(large.json.length).toBe(4098);
    expect(answers.heldBytes).toBe(0);
  });
});
