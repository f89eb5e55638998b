DROP TABLE matchmaking_lock;
DROP TABLE seeks;
DROP TABLE rating_history;
DROP TABLE ratings;
ALTER TABLE games DROP COLUMN pool;
ALTER TABLE games DROP COLUMN rated;
DELETE FROM users WHERE kind = 'builtin';
ALTER TABLE users DROP COLUMN kind_changed_at;
ALTER TABLE users DROP COLUMN kind;
