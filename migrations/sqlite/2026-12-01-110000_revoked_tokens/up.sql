-- Tokens revoked before their expiry (`DELETE /api/v1/tokens/current`), by their `jti`
-- claim. A row is useless once its token has expired, and is pruned then.
CREATE TABLE revoked_tokens (
    jti         TEXT PRIMARY KEY,
    expires_at  TIMESTAMP NOT NULL              -- the token's own expiry
);

CREATE INDEX revoked_tokens_expires_at ON revoked_tokens (expires_at);
