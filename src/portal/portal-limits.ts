// Limits on what costs us or a third party: e-mail per address and per client, accounts per client; counted in the shared limit stores.
import { createHash } from 'node:crypto';
import { ipKeyGenerator } from 'express-rate-limit';
import type { Config } from '../config.ts';
import type { Logger } from '../http/logger.ts';
import { limiterLogger } from '../limits/limiter-logger.ts';
import type { LimitStores } from '../limits/stores.ts';
import { createWindowCounts, type WindowCounts } from '../limits/window-limiter.ts';

/** The window every portal limit counts in. */
export const PORTAL_LIMIT_WINDOW_MS = 60 * 60 * 1000;

/** Kinds of e-mail limited separately per address: a flood of one kind leaves the other usable. */
export type MailCategory = 'verification' | 'password-reset';

/** A request refused by a limit: the page says why and when to try again (429, Retry-After). */
export class LimitRefusal extends Error {
  readonly retryAfterSeconds: number;
  constructor(message: string, retryAfterSeconds: number) {
    super(message);
    this.name = 'LimitRefusal';
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export interface PortalLimitsDependencies {
  config: Pick<Config, 'mailPerAddressPerHour' | 'mailPerClientPerHour' | 'signUpsPerClientPerHour'>;
  limitStores: Pick<LimitStores, 'mailAddress' | 'mailClient' | 'signUpClient'>;
  logger: Logger;
}

/**
 * Each check counts one attempt and throws LimitRefusal past its limit. Addresses are counted
 * whether or not an account has them (the limit reveals no account), hashed so the store never
 * holds them. A store that fails lets the request through (logged), as every limit does.
 *
 * @example await limits.mail('password-reset', address, req.ip); await mailQueue.enqueue('reset-password', address);
 */
export interface PortalLimits {
  /** One account created by `client` (the client address, req.ip). */
  signUp(client: string | undefined): Promise<void>;
  /** One e-mail of `category` to `address` caused by `client`: per client first, then per address. */
  mail(category: MailCategory, address: string, client: string | undefined): Promise<void>;
}

export function createPortalLimits({ config, limitStores, logger }: PortalLimitsDependencies): PortalLimits {
  const counts = (store: LimitStores['mailAddress'], name: string) =>
    createWindowCounts({ windowMs: PORTAL_LIMIT_WINDOW_MS, store, logger: limiterLogger(logger, name) });
  const signUps = counts(limitStores.signUpClient, 'sign-up-client');
  const mailClients = counts(limitStores.mailClient, 'mail-client');
  const mailAddresses = counts(limitStores.mailAddress, 'mail-address');
  const clientKey = (client: string | undefined) => ipKeyGenerator(client ?? 'unknown');
  return {
    async signUp(client) {
      await within(signUps, clientKey(client), config.signUpsPerClientPerHour, (minutes) => {
        return `Too many accounts were created from your network in the last hour. Try again in ${minutes}.`;
      });
    },
    async mail(category, address, client) {
      await within(mailClients, clientKey(client), config.mailPerClientPerHour, (minutes) => {
        return `Too many e-mails were asked for from your network in the last hour. Try again in ${minutes}.`;
      });
      const key = `${category}:${createHash('sha256').update(address).digest('hex')}`;
      await within(mailAddresses, key, config.mailPerAddressPerHour, (minutes) => {
        const what = category === 'verification' ? 'verification' : 'password reset';
        return `This address was sent ${config.mailPerAddressPerHour} ${what} e-mails in the last hour, the most it gets. Check its inbox (and spam folder), or try again in ${minutes}.`;
      });
    },
  };
}

/** Counts one under `key`; past `limit` throws LimitRefusal with `message(minutes to wait)`. */
async function within(counts: WindowCounts, key: string, limit: number, message: (minutes: string) => string): Promise<void> {
  const state = await counts.add(key);
  if (!state || state.totalHits <= limit) return;
  const seconds = Math.max(1, Math.ceil(state.msToReset / 1000));
  const minutes = Math.ceil(seconds / 60);
  throw new LimitRefusal(message(minutes === 1 ? 'a minute' : `${minutes} minutes`), seconds);
}
