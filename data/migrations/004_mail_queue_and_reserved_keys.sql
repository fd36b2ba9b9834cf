-- The portal's outgoing e-mail, queued durably and sent in the background, and the key each reserved address is compared by.

-- One row per message to send. The request that causes a message writes its row and returns; a sender
-- (src/portal/mailer/mail-sender.ts) composes it (issuing the link's token in the same transaction),
-- sends it, retries with backoff, and records the outcome. Rows survive a restart.
CREATE TABLE outgoing_mail (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  kind TEXT NOT NULL CHECK (kind IN ('verify-email', 'account-exists', 'reset-password')),
  -- The normalised address asked for; a reset asked for an address without an account is deleted unsent.
  recipient TEXT NOT NULL CHECK (length(recipient) BETWEEN 3 AND 254),
  -- The composed message (subject, text, HTML, link), sealed with AES-256-GCM under a key derived from the
  -- key fingerprint secret: never the link's token in clear. NULL until composed, and again once finished.
  sealed_message TEXT,
  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  next_attempt_at TEXT NOT NULL,
  -- A sender holds the row until then; after a crash, another (or the restarted one) takes it when this has passed.
  claimed_until TEXT,
  finished_at TEXT,
  -- Why the last attempt failed (no secret: the SMTP server's answer or the error's message).
  last_error TEXT
);
CREATE INDEX outgoing_mail_due ON outgoing_mail (status, next_attempt_at);

-- The TR39 skeleton of the address as RESERVED_EMAIL_IGNORE reads its local part (src/accounts/email-address.ts),
-- and the rules it was made with: keys made with other rules are made again at start.
ALTER TABLE reserved_emails ADD COLUMN match_key TEXT;
ALTER TABLE reserved_emails ADD COLUMN match_rules TEXT;
CREATE INDEX reserved_emails_by_match_key ON reserved_emails (match_key);
