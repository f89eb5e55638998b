-- The database work of one move on the server's fast path (src/store/append.rs), for reference
-- beside move.sql: the legal-moves read of the game row and the caller's seat (the snapshot
-- itself is not sent: the server has it cached), then one autocommitted statement that
-- updates the game only at the version read and only if the caller holds the seat, and
-- inserts the log entry only if that matched. Each pgbench client owns one game.
SELECT version AS v, CASE WHEN version <> version THEN snapshot END AS snapshot_read,
       (SELECT seat FROM bench_players p WHERE p.game_id = g.id AND p.user_id = 'bench') AS seat
    FROM bench_games g WHERE id = md5(:client_id::text)::uuid::text \gset
WITH bumped AS (
    UPDATE bench_games SET status = 'playing', version = :v + 1, snapshot = (SELECT snapshot FROM bench_payload),
        updated_at = now()
    WHERE id = md5(:client_id::text)::uuid::text AND version = :v
      AND EXISTS (SELECT 1 FROM bench_players p WHERE p.game_id = bench_games.id AND p.user_id = 'bench' AND p.seat = 0)
    RETURNING id)
INSERT INTO bench_moves (game_id, seq, seat, kind, move_body, events, created_at)
    SELECT id, :v + 1, 0, 'build_road', move_body, events, now() FROM bumped, bench_payload;
