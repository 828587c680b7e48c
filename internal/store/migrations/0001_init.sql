-- The first schema: a marker table so an empty database is recognisable.
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
