-- Developer accounts, their API keys (stored as keyed fingerprints only) and the reserved e-mail list.

CREATE TABLE developers (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  email TEXT NOT NULL UNIQUE COLLATE NOCASE CHECK (length(email) BETWEEN 3 AND 254),
  -- NULL until the address is verified; a key cannot be created before that.
  email_verified_at TEXT,
  created_at TEXT NOT NULL
);

CREATE TABLE api_keys (
  id INTEGER PRIMARY KEY,
  developer_id INTEGER NOT NULL REFERENCES developers (id) ON DELETE CASCADE,
  name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  -- HMAC-SHA-256 of the full key with the server secret, lowercase hex. The key itself is never stored.
  fingerprint TEXT NOT NULL UNIQUE CHECK (length(fingerprint) = 64),
  -- Last 4 characters of the key, for display only.
  hint TEXT NOT NULL CHECK (length(hint) = 4),
  created_at TEXT NOT NULL,
  last_used_at TEXT,
  revoked_at TEXT
);

CREATE INDEX api_keys_by_developer ON api_keys (developer_id, revoked_at);

-- Addresses linked to the operator's other products: they cannot become developer accounts.
CREATE TABLE reserved_emails (
  email TEXT PRIMARY KEY COLLATE NOCASE,
  imported_at TEXT NOT NULL
);
