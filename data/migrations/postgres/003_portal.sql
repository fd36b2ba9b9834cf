-- Developer portal for PostgreSQL (the same tables as ../003_portal.sql): password hashes, identity-provider links,
-- server-side sessions and one-time e-mail tokens. Nothing here is a secret in clear: passwords are scrypt hashes,
-- session ids and tokens SHA-256 hashes.

CREATE TABLE developer_passwords (
  developer_id  bigint PRIMARY KEY REFERENCES developers (id) ON DELETE CASCADE,
  -- scrypt$<N>$<r>$<p>$<salt>$<hash> (base64): never the password.
  password_hash text   NOT NULL CHECK (password_hash LIKE 'scrypt$%'),
  updated_at    text   NOT NULL
);

-- An OpenID Connect identity (issuer + subject) signs in as one developer; a developer may have several.
CREATE TABLE developer_identities (
  issuer       text   NOT NULL,
  subject      text   NOT NULL,
  developer_id bigint NOT NULL REFERENCES developers (id) ON DELETE CASCADE,
  linked_at    text   NOT NULL,
  PRIMARY KEY (issuer, subject)
);
CREATE INDEX developer_identities_by_developer ON developer_identities (developer_id);

CREATE TABLE portal_sessions (
  -- SHA-256 of the session id (lowercase hex): a copy of the database cannot be replayed as a cookie.
  id_hash      text   COLLATE "C" PRIMARY KEY CHECK (length(id_hash) = 64),
  -- The signed-in developer, NULL before sign-in; lets a password reset end all their sessions.
  developer_id bigint REFERENCES developers (id) ON DELETE CASCADE,
  data         text   NOT NULL,
  expires_at   text   COLLATE "C" NOT NULL
);
CREATE INDEX portal_sessions_by_developer ON portal_sessions (developer_id);
CREATE INDEX portal_sessions_by_expiry ON portal_sessions (expires_at);

-- Links sent by e-mail: single use, with an expiry; only their SHA-256 is kept.
CREATE TABLE one_time_tokens (
  token_hash   text   COLLATE "C" PRIMARY KEY CHECK (length(token_hash) = 64),
  purpose      text   NOT NULL CHECK (purpose IN ('verify-email', 'reset-password')),
  developer_id bigint NOT NULL REFERENCES developers (id) ON DELETE CASCADE,
  created_at   text   COLLATE "C" NOT NULL,
  expires_at   text   COLLATE "C" NOT NULL,
  used_at      text   COLLATE "C"
);
CREATE INDEX one_time_tokens_by_developer ON one_time_tokens (developer_id, purpose);
