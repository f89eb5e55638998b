DROP INDEX users_username_key_unique;
ALTER TABLE users DROP COLUMN username_key;
