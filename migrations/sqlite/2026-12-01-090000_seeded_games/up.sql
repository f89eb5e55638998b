-- A game whose creator chose its seed: its dice can be known in advance, so no other
-- human may join it (bots, tests and sandboxes only).
ALTER TABLE games ADD COLUMN seeded BOOLEAN NOT NULL DEFAULT FALSE;
