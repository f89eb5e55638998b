-- One move's transaction shape, as the server runs it (src/store/moves.rs `submit_move`/`play_on`):
-- lock the game row and read its snapshot, insert the log entry at version + 1, write the
-- new snapshot and version. Each pgbench client owns one game (its :client_id), like each
-- load generator worker. Payloads are real snapshot/entry JSON taken from the server's own
-- database (bench_payload, filled by scripts/bench-server.sh).
BEGIN;
SELECT version + 1 AS seq, snapshot AS snapshot_read FROM bench_games WHERE id = md5(:client_id::text)::uuid::text FOR UPDATE \gset
INSERT INTO bench_moves (game_id, seq, seat, kind, move_body, events, created_at)
    SELECT md5(:client_id::text)::uuid::text, :seq, 0, 'build_road', move_body, events, now() FROM bench_payload;
UPDATE bench_games SET version = :seq, snapshot = (SELECT snapshot FROM bench_payload), updated_at = now()
    WHERE id = md5(:client_id::text)::uuid::text;
END;
