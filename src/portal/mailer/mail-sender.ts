// The portal's e-mail, queued durably on the request and sent in the background: one transport, a few messages at once, retries with backoff.
import type { Logger } from '../../http/logger.ts';
import type { Sealer } from '../sealing.ts';
import type { ClaimedMail, MailKind, MailRepository } from '../storage/mail-repository.ts';
import { MAIL_LIFETIME_MS, type MailComposer } from './mail-composer.ts';
import type { Mailer, MailMessage } from './mailer.ts';

/** What a request hands over: a kind and an address, written to the queue; nothing is sent while it waits. */
export interface MailQueue {
  /**
   * Queues a message (one row written; no lookup, no token, no SMTP), so the request costs the
   * same whatever the address, and a slow mail server never reaches it.
   */
  enqueue(kind: MailKind, recipient: string): Promise<void>;
}

export interface MailSender extends MailQueue {
  /** Starts sending: what is due now (rows left by a previous run included), then at every poll. */
  start(): void;
  /** Stops taking rows, lets go of the ones being sent (due again at once for the next run), closes the transport. */
  close(): Promise<void>;
}

export interface MailSenderOptions {
  repository: MailRepository;
  /** The one transport: the pooled SMTP connections, or the outbox folder. */
  mailer: Mailer;
  composer: MailComposer;
  /** Seals composed messages while they wait in the queue. */
  sealer: Sealer;
  /** Messages sent at once (the SMTP pool's connections). */
  concurrency: number;
  maxAttempts: number;
  /** Wait before the second attempt; doubled after each failure, up to an hour. */
  retryBaseMs: number;
  /** How often the queue is looked at for rows due (new ones, retries, other instances' rows). */
  pollIntervalMs: number;
  /** Longest one attempt may take before it counts as failed; a claim lasts a little longer. */
  attemptTimeoutMs: number;
  logger: Logger;
  now?: () => Date;
}

/** Sent and failed rows are kept this long as a record (without their message), then deleted. */
const RECORD_KEPT_MS = 7 * 24 * 60 * 60 * 1000;
const SWEEP_INTERVAL_MS = 60 * 60 * 1000;
const MAX_RETRY_DELAY_MS = 60 * 60 * 1000;
/** A claim outlives its attempt by this much, so a slow attempt is never sent twice by another sender. */
const CLAIM_MARGIN_MS = 30_000;
/** Longest close() waits for the sends under way to end. */
const CLOSE_WAIT_MS = 2_000;
/** Database errors of the sender are logged at most this often. */
const ERROR_LOG_INTERVAL_MS = 60_000;

/** Writes one outcome to the queue (sent, failed, retry later, released). */
type Outcome = () => Promise<void>;

/**
 * A sender over the queue. It holds at most `concurrency` messages at once (read from the queue
 * as slots free up), so a dead or slow mail server costs that many sockets and nothing else: the
 * queue stays in the database, requests never wait for it, and no message is lost on a restart.
 * Delivery is at least once: a message whose sender dies after the server accepted it, but before
 * it was recorded, is sent again.
 *
 * @example const sender = createMailSender({ repository, mailer, composer, sealer, … }); sender.start(); await sender.enqueue('reset-password', address);
 */
export function createMailSender(options: MailSenderOptions): MailSender {
  const { repository, mailer, composer, sealer, logger, concurrency } = options;
  const now = options.now ?? (() => new Date());
  const claimMs = options.attemptTimeoutMs + CLAIM_MARGIN_MS;
  const inFlight = new Map<number, Promise<void>>();
  /** Outcomes the database refused to record (locked, unreachable): retried before anything new is claimed. */
  const unrecorded: Outcome[] = [];
  let running = false;
  /** The poll under way, if any: close() waits for it, so nothing touches the database after. */
  let polling: Promise<void> | undefined;
  let pollAgain = false;
  let timer: NodeJS.Timeout | undefined;
  let lastSweep = 0;
  let lastErrorLogged = Number.NEGATIVE_INFINITY;

  const reportDatabaseError = (error: unknown, what: string) => {
    if (Date.now() - lastErrorLogged < ERROR_LOG_INTERVAL_MS) return;
    lastErrorLogged = Date.now();
    logger.warn({ err: error }, `mail queue: ${what} failed; retrying in the background`);
  };

  const recordOutcomes = async (): Promise<boolean> => {
    while (unrecorded.length > 0) {
      try {
        await unrecorded[0]();
        unrecorded.shift();
      } catch (error) {
        reportDatabaseError(error, 'recording an outcome');
        return false;
      }
    }
    return true;
  };

  const record = async (outcome: Outcome) => {
    unrecorded.push(outcome);
    await recordOutcomes();
  };

  const send = async (row: ClaimedMail): Promise<void> => {
    const started = now();
    if (started.getTime() - Date.parse(row.createdAt) > MAIL_LIFETIME_MS[row.kind]) {
      return record(() => repository.markFailed(row.id, now().toISOString(), 'expired: its link would no longer work'));
    }
    let message: Omit<MailMessage, 'to'>;
    if (row.sealedMessage !== null) {
      try {
        message = JSON.parse(sealer.open(row.sealedMessage)) as Omit<MailMessage, 'to'>;
      } catch {
        // Sealed under another key (KEY_FINGERPRINT_SECRET changed since): it can never be opened.
        const reason = 'its sealed message cannot be opened (the key fingerprint secret changed?)';
        logger.error({ mailId: row.id, kind: row.kind }, `a portal e-mail could not be sent: ${reason}`);
        return record(() => repository.markFailed(row.id, now().toISOString(), reason));
      }
    } else {
      try {
        const composed = await composer.compose(row.kind, row.recipient, started);
        if (!composed) return record(() => repository.delete(row.id));
        await repository.saveComposed(row.id, sealer.seal(JSON.stringify(composed.message)), composed.token);
        message = composed.message;
      } catch (error) {
        // Not composed (database busy or down): the attempt is not counted against the message.
        reportDatabaseError(error, 'composing a message');
        return record(() => repository.release([row.id]));
      }
    }
    try {
      await withTimeout(mailer.send({ ...message, to: row.recipient }), options.attemptTimeoutMs);
      return record(() => repository.markSent(row.id, now().toISOString()));
    } catch (error) {
      // Stopped mid-send (the transport was closed): due again at once for the next run, this attempt not counted.
      if (!running) return record(() => repository.release([row.id]));
      const reason = errorText(error);
      if (row.attempts >= options.maxAttempts) {
        logger.error(
          { mailId: row.id, kind: row.kind, attempts: row.attempts, error: reason },
          'a portal e-mail could not be sent; given up',
        );
        return record(() => repository.markFailed(row.id, now().toISOString(), reason));
      }
      const delay = Math.min(options.retryBaseMs * 2 ** (row.attempts - 1), MAX_RETRY_DELAY_MS);
      logger.warn(
        { mailId: row.id, kind: row.kind, attempts: row.attempts, retryInMs: delay, error: reason },
        'a portal e-mail was not sent; retrying later',
      );
      const next = new Date(now().getTime() + delay).toISOString();
      return record(() => repository.retryLater(row.id, next, reason));
    }
  };

  const sweep = async () => {
    if (Date.now() - lastSweep < SWEEP_INTERVAL_MS) return;
    lastSweep = Date.now();
    await repository.deleteFinishedBefore(new Date(now().getTime() - RECORD_KEPT_MS).toISOString());
  };

  const poll = (): Promise<void> => {
    if (!running) return Promise.resolve();
    if (polling) {
      pollAgain = true;
      return polling;
    }
    polling = pollOnce().finally(() => {
      polling = undefined;
    });
    return polling;
  };

  const pollOnce = async (): Promise<void> => {
    try {
      do {
        pollAgain = false;
        if (!(await recordOutcomes())) return;
        const free = concurrency - inFlight.size;
        if (free <= 0) return;
        const at = now();
        const rows = await repository.claimDue(at.toISOString(), new Date(at.getTime() + claimMs).toISOString(), free);
        for (const row of rows) {
          const sending = send(row).finally(() => {
            inFlight.delete(row.id);
            void poll();
          });
          inFlight.set(row.id, sending);
        }
        if (rows.length === free) pollAgain = true;
        await sweep();
      } while (pollAgain && running);
    } catch (error) {
      reportDatabaseError(error, 'reading the queue');
    }
  };

  return {
    async enqueue(kind, recipient) {
      // Only written: the next poll takes it. Composing right after the request would tie the sender's
      // work, which differs for an address with an account, to the request's timing.
      await repository.enqueue(kind, recipient, now().toISOString());
    },
    start() {
      if (running) return;
      running = true;
      timer = setInterval(() => void poll(), options.pollIntervalMs);
      timer.unref();
      setImmediate(() => void poll());
    },
    async close() {
      running = false;
      clearInterval(timer);
      await polling;
      // Closing the transport ends the sends under way; each is then released (due again at once for the next run).
      mailer.close();
      let waited: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled(inFlight.values()),
        new Promise((resolve) => {
          waited = setTimeout(resolve, CLOSE_WAIT_MS);
        }),
      ]);
      clearTimeout(waited);
      // A send that did not end in time is released too: sent twice at worst, never lost.
      const stuck = [...inFlight.keys()];
      if (stuck.length > 0) unrecorded.push(() => repository.release(stuck));
      await recordOutcomes();
    },
  };
}

/** The promise, or a rejection after `ms`. */
function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

function errorText(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 500);
}
