// Which PostgreSQL and driver errors mean "the database cannot answer now", and turning them into StorageUnavailableError.
import { StorageUnavailableError } from '../storage-unavailable.ts';

/**
 * SQLSTATE codes of a database that is down, overloaded or too slow, not of a wrong query:
 * classes 08 (connection exception), 53 (insufficient resources), 58 (system error), and
 * statement timeout, idle-in-transaction timeout, shutdown, and the retryable conflicts.
 */
const UNAVAILABLE_CLASSES = ['08', '53', '58'];
const UNAVAILABLE_CODES = new Set([
  '57014', // query_canceled: statement_timeout
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, shutting down)
  '25P03', // idle_in_transaction_session_timeout
  '40001', // serialization_failure
  '40P01', // deadlock_detected
  '55P03', // lock_not_available
]);

/** Network errors of the socket to the server. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);

/** The driver's own messages for a connection that could not be made, was cut, or a query that got no answer in time. */
const DRIVER_MESSAGES =
  /timeout exceeded when trying to connect|Connection terminated|Query read timeout|Client has encountered a connection error|Connection ended|Client was closed|Cannot use a pool after calling end/;

/** Whether `error` says the database cannot answer now (as opposed to a bug or a constraint). */
export function isUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string') {
    if (UNAVAILABLE_CODES.has(code) || NETWORK_CODES.has(code)) return true;
    if (/^[0-9A-Z]{5}$/.test(code) && UNAVAILABLE_CLASSES.includes(code.slice(0, 2))) return true;
  }
  return error instanceof Error && DRIVER_MESSAGES.test(error.message);
}

/** `error` as StorageUnavailableError when it is one of those, else unchanged (a bug or a constraint stays what it is). */
export function storageError(error: unknown): unknown {
  if (error instanceof StorageUnavailableError || !isUnavailable(error)) return error;
  const detail = error instanceof Error ? error.message : String(error);
  return new StorageUnavailableError(`PostgreSQL cannot answer now: ${detail}`, { cause: error });
}
