// The checks made at start before anything is opened: here HOST, whose name must resolve before the database is made.
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../src/config.ts';
import { checkListenHost } from '../src/startup-checks.ts';

describe('HOST is checked before anything is written', () => {
  it('takes an address as it is, without asking the resolver', async () => {
    const asked: string[] = [];
    const resolve = async (name: string) => asked.push(name);
    for (const host of ['0.0.0.0', '127.0.0.1', '::', '::1']) await checkListenHost(host, resolve);
    expect(asked).toEqual([]);
  });

  it('takes a name that resolves (localhost, from the hosts file)', async () => {
    await expect(checkListenHost('localhost')).resolves.toBeUndefined();
  });

  it('refuses a name that does not resolve, naming HOST and the resolver’s answer', async () => {
    const notFound = async (name: string) => {
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
    };
    const refusal = checkListenHost('api.internal', notFound);
    await expect(refusal).rejects.toThrow(ConfigError);
    await expect(refusal).rejects.toThrow('HOST: api.internal does not resolve to an address to listen on (ENOTFOUND)');
  });
});
