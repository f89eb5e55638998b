DROP TABLE revoked_tokens;
