CREATE UNIQUE INDEX game_moves_idempotency_key ON game_moves (game_id, idempotency_key);
DROP TABLE idempotency_keys;
DROP TABLE trade_offers;
