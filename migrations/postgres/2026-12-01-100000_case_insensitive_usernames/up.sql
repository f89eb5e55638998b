-- Usernames are case-insensitive: `abc` and `ABC` are one account. Each user gets a key,
-- the lowercased name, unique among users (the name itself keeps the case it was
-- registered with). Usernames are ASCII, so lower() is the same on both backends.
--
-- Accounts that an older server let differ only by case are kept, and each can still log
-- in with its exact name: the oldest keeps the plain key; the others get the key
-- `<lowercased name>:<id>`, which no new name can take (`:` is not allowed in a name).
ALTER TABLE users ADD COLUMN username_key TEXT NOT NULL DEFAULT '';
UPDATE users SET username_key = lower(username);
UPDATE users SET username_key = lower(username) || ':' || id
WHERE EXISTS (
    SELECT 1 FROM users AS older
    WHERE lower(older.username) = lower(users.username)
      AND (older.created_at < users.created_at OR (older.created_at = users.created_at AND older.id < users.id))
);
CREATE UNIQUE INDEX users_username_key_unique ON users (username_key);
