// Storage of the portal's outgoing e-mail queue: store and fetch, no rules (when to retry and what to send are the sender's).
import type { TokenInsert } from './token-repository.ts';

export type MailKind = 'verify-email' | 'account-exists' | 'reset-password';

/** A queued message a sender has claimed. */
export interface ClaimedMail {
  id: number;
  kind: MailKind;
  /** The normalised address. */
  recipient: string;
  /** The composed message, sealed (src/portal/sealing.ts); null until composed. */
  sealedMessage: string | null;
  /** Attempts so far, this one included. */
  attempts: number;
  createdAt: string;
}

/** How many messages are in each state. */
export interface MailCounts {
  pending: number;
  sent: number;
  failed: number;
}

/**
 * What the mail sender (src/portal/mailer/mail-sender.ts) needs. A claim holds a row for one
 * sender until `claimUntil`, so instances sharing a database never send one message twice while
 * its sender lives; a row whose sender died is claimed again once that time has passed.
 * The contract is test/portal/storage/mail-repository-contract.test.ts.
 *
 * @example const due = await mail.claimDue(now, claimUntil, 2); // at most two rows, oldest first
 */
export interface MailRepository {
  /** Queues a message (on the request path; nothing is composed or sent here). */
  enqueue(kind: MailKind, recipient: string, now: string): Promise<void>;
  /** Claims up to `limit` pending rows due at `now` and not held by another sender, oldest first, counting an attempt on each. */
  claimDue(now: string, claimUntil: string, limit: number): Promise<ClaimedMail[]>;
  /**
   * Stores the composed message of a claimed row and, when the message carries a link, its token
   * (the developer's older tokens of that purpose deleted) in one transaction.
   */
  saveComposed(id: number, sealedMessage: string, token: TokenInsert | undefined): Promise<void>;
  /** Sent: the sealed message is removed, the row kept (without it) as a record. */
  markSent(id: number, now: string): Promise<void>;
  /** Given up on: the sealed message is removed, the reason kept. */
  markFailed(id: number, now: string, error: string): Promise<void>;
  /** Released until `nextAttemptAt`, with the reason of this failure. */
  retryLater(id: number, nextAttemptAt: string, error: string): Promise<void>;
  /** Claims let go of unsent (the sender stops): the rows are due again at once, this attempt not counted. */
  release(ids: readonly number[]): Promise<void>;
  /** Removes a row that asked for nothing to send (a reset for an address without an account). */
  delete(id: number): Promise<void>;
  /** Removes sent and failed rows finished before `time`; returns how many. */
  deleteFinishedBefore(time: string): Promise<number>;
  counts(): Promise<MailCounts>;
}
