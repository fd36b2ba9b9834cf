-- Church data: only what a church has made public. No tables or columns for members, finances or donations.
-- Local date-times are wall-clock 'YYYY-MM-DDTHH:MM' in the church's IANA time zone; instants are UTC ISO-8601.
-- Prices are integers in the currency's minor unit (cents), with an ISO 4217 code.

CREATE TABLE churches (
  id              INTEGER PRIMARY KEY,
  slug            TEXT    NOT NULL UNIQUE
                  CHECK (length(slug) BETWEEN 1 AND 100 AND slug NOT GLOB '*[^a-z0-9-]*'),
  name            TEXT    NOT NULL CHECK (length(name) > 0),
  bio             TEXT    NOT NULL DEFAULT '',
  denomination    TEXT    NOT NULL DEFAULT '',
  logo_url        TEXT,
  cover_image_url TEXT,
  city            TEXT    NOT NULL,
  country         TEXT    NOT NULL CHECK (length(country) = 2 AND country NOT GLOB '*[^A-Z]*'),
  language        TEXT    NOT NULL CHECK (length(language) BETWEEN 2 AND 35),
  website         TEXT,
  -- IANA zone (Europe/Paris); internal: decides which events are still upcoming, never shown.
  time_zone       TEXT    NOT NULL CHECK (length(time_zone) > 0),
  is_public       INTEGER NOT NULL CHECK (is_public IN (0, 1))
);

CREATE TABLE events (
  id               INTEGER PRIMARY KEY,
  church_id        INTEGER NOT NULL REFERENCES churches(id) ON DELETE CASCADE,
  slug             TEXT    NOT NULL CHECK (length(slug) BETWEEN 1 AND 100 AND slug NOT GLOB '*[^a-z0-9-]*'),
  name             TEXT    NOT NULL CHECK (length(name) > 0),
  description      TEXT    NOT NULL DEFAULT '',
  start_local      TEXT    NOT NULL
                   CHECK (start_local GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]'),
  end_local        TEXT
                   CHECK (end_local IS NULL OR
                          (end_local GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]'
                           AND end_local >= start_local)),
  location         TEXT    NOT NULL DEFAULT '',
  cover_image_url  TEXT,
  is_free          INTEGER NOT NULL CHECK (is_free IN (0, 1)),
  -- External ticketing page; NULL means the event's page on the public site.
  registration_url TEXT,
  is_published     INTEGER NOT NULL CHECK (is_published IN (0, 1)),
  is_public        INTEGER NOT NULL CHECK (is_public IN (0, 1)),
  UNIQUE (church_id, slug)
);
CREATE INDEX events_by_church_end ON events (church_id, coalesce(end_local, start_local));

CREATE TABLE posts (
  id           INTEGER PRIMARY KEY,
  church_id    INTEGER NOT NULL REFERENCES churches(id) ON DELETE CASCADE,
  slug         TEXT    NOT NULL CHECK (length(slug) BETWEEN 1 AND 100 AND slug NOT GLOB '*[^a-z0-9-]*'),
  title        TEXT    NOT NULL CHECK (length(title) > 0),
  body         TEXT    NOT NULL DEFAULT '',
  image_url    TEXT,
  published_at TEXT    NOT NULL
               CHECK (published_at GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-5][0-9]Z'),
  is_public    INTEGER NOT NULL CHECK (is_public IN (0, 1)),
  UNIQUE (church_id, slug)
);
-- Serves both the page (newest first) and its count without touching the table.
CREATE INDEX posts_by_church_date ON posts (church_id, is_public, published_at DESC, slug);

CREATE TABLE library_items (
  id              INTEGER PRIMARY KEY,
  church_id       INTEGER NOT NULL REFERENCES churches(id) ON DELETE CASCADE,
  slug            TEXT    NOT NULL CHECK (length(slug) BETWEEN 1 AND 100 AND slug NOT GLOB '*[^a-z0-9-]*'),
  type            TEXT    NOT NULL CHECK (type IN ('PDF', 'BOOK', 'AUDIO')),
  title           TEXT    NOT NULL CHECK (length(title) > 0),
  author          TEXT    NOT NULL DEFAULT '',
  description     TEXT    NOT NULL DEFAULT '',
  cover_image_url TEXT,
  -- NULL price: free to read or listen.
  price_minor     INTEGER CHECK (price_minor IS NULL OR price_minor >= 0),
  currency        TEXT    CHECK (currency IS NULL OR (length(currency) = 3 AND currency NOT GLOB '*[^A-Z]*')),
  position        INTEGER NOT NULL,
  is_public       INTEGER NOT NULL CHECK (is_public IN (0, 1)),
  CHECK ((price_minor IS NULL) = (currency IS NULL)),
  UNIQUE (church_id, slug)
);
CREATE INDEX library_by_church ON library_items (church_id, is_public, position, slug);
CREATE INDEX library_by_church_type ON library_items (church_id, is_public, type, position, slug);

CREATE TABLE products (
  id                      INTEGER PRIMARY KEY,
  church_id               INTEGER NOT NULL REFERENCES churches(id) ON DELETE CASCADE,
  slug                    TEXT    NOT NULL CHECK (length(slug) BETWEEN 1 AND 100 AND slug NOT GLOB '*[^a-z0-9-]*'),
  name                    TEXT    NOT NULL CHECK (length(name) > 0),
  description             TEXT    NOT NULL DEFAULT '',
  image_url               TEXT,
  currency                TEXT    NOT NULL CHECK (length(currency) = 3 AND currency NOT GLOB '*[^A-Z]*'),
  -- Price of a product without variants; NULL when the product has variants (each carries its own).
  price_minor             INTEGER CHECK (price_minor IS NULL OR price_minor >= 0),
  position                INTEGER NOT NULL,
  visible_on_public_page  INTEGER NOT NULL CHECK (visible_on_public_page IN (0, 1)),
  UNIQUE (church_id, slug)
);
CREATE INDEX products_by_church ON products (church_id, position);

CREATE TABLE product_variants (
  id          INTEGER PRIMARY KEY,
  product_id  INTEGER NOT NULL REFERENCES products(id) ON DELETE CASCADE,
  name        TEXT    NOT NULL CHECK (length(name) > 0),
  price_minor INTEGER NOT NULL CHECK (price_minor >= 0),
  position    INTEGER NOT NULL,
  UNIQUE (product_id, name)
);
CREATE INDEX variants_by_product ON product_variants (product_id, position);

CREATE TABLE albums (
  id              INTEGER PRIMARY KEY,
  church_id       INTEGER NOT NULL REFERENCES churches(id) ON DELETE CASCADE,
  -- Public, stable identifier used in paths (albumId); unique within the church.
  album_key       TEXT    NOT NULL CHECK (length(album_key) BETWEEN 1 AND 100 AND album_key NOT GLOB '*[^a-z0-9-]*'),
  title           TEXT    NOT NULL CHECK (length(title) > 0),
  description     TEXT    NOT NULL DEFAULT '',
  taken_on        TEXT    CHECK (taken_on IS NULL OR taken_on GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'),
  cover_url       TEXT,
  position        INTEGER NOT NULL,
  is_public       INTEGER NOT NULL CHECK (is_public IN (0, 1)),
  UNIQUE (church_id, album_key)
);

CREATE TABLE photos (
  id            INTEGER PRIMARY KEY,
  album_id      INTEGER NOT NULL REFERENCES albums(id) ON DELETE CASCADE,
  url           TEXT    NOT NULL CHECK (length(url) > 0),
  thumbnail_url TEXT,
  caption       TEXT    NOT NULL DEFAULT '',
  width         INTEGER CHECK (width IS NULL OR width > 0),
  height        INTEGER CHECK (height IS NULL OR height > 0),
  position      INTEGER NOT NULL
);
CREATE INDEX photos_by_album ON photos (album_id, position);

-- At most one station per church: radio (is_video 0) or video (is_video 1).
CREATE TABLE live_stations (
  id           INTEGER PRIMARY KEY,
  church_id    INTEGER NOT NULL UNIQUE REFERENCES churches(id) ON DELETE CASCADE,
  station_name TEXT    NOT NULL CHECK (length(station_name) > 0),
  -- External player page; NULL means the church's live page on the public site.
  listen_url   TEXT,
  is_video     INTEGER NOT NULL CHECK (is_video IN (0, 1)),
  is_live      INTEGER NOT NULL CHECK (is_live IN (0, 1))
);
