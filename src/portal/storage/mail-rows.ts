// A claimed row of the outgoing mail queue as both backends read it (the same columns), and the record the sender takes.
import type { ClaimedMail, MailKind } from './mail-repository.ts';

/** The columns a claim returns. */
export interface ClaimedRow {
  id: number;
  kind: MailKind;
  recipient: string;
  sealed_message: string | null;
  attempts: number;
  created_at: string;
}

/** A claimed row as the sender takes it. */
export function toClaimed(row: ClaimedRow): ClaimedMail {
  return {
    id: row.id,
    kind: row.kind,
    recipient: row.recipient,
    sealedMessage: row.sealed_message,
    attempts: row.attempts,
    createdAt: row.created_at,
  };
}
