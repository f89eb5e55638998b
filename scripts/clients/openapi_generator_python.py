"""Plays a complete game through openapi-generator's `python` client (package `catan_openapi`),
generated from openapi/openapi.json by scripts/client-check and used as generated: every
request goes through its API classes, every answer is parsed into its pydantic models.

One player posts random legal moves (building first, as the engine's random bot weighs them)
against three heuristic bots until the game ends. Every page of the log is read as the player
while the game runs (the bots' moves must parse as `HiddenMove`: issue 30, where this client
refused them) and as a spectator at the end.

Usage: python3 openapi_generator_python.py <base URL> <directory holding the generated package>
"""

import random
import sys
import time
import uuid

BASE, PACKAGE_DIR = sys.argv[1], sys.argv[2]
sys.path.insert(0, PACKAGE_DIR)

import catan_openapi  # noqa: E402
from catan_openapi import (  # noqa: E402
    CreateGameRequest,
    Credentials,
    GamesApi,
    HiddenMove,
    JoinRequest,
    MovesApi,
    UsersApi,
)
from catan_openapi.exceptions import ApiException  # noqa: E402

MOVE_CAP = 5000
BUILDING = ("build_city", "build_settlement", "buy_development_card", "build_road")


def client(token=None):
    return catan_openapi.ApiClient(catan_openapi.Configuration(host=BASE, access_token=token))


def pick(moves, rng):
    kinds = [m.actual_instance.type for m in moves]
    for kind in BUILDING:
        if kind in kinds and rng.random() < 0.7:
            return moves[kinds.index(kind)]
    return rng.choice(moves)


def read_log(api, game_id, readers_seat):
    after, entries = 0, []
    while True:
        page = api.list_moves(game_id, after=after, limit=1000)
        if not page.entries:
            return entries
        for entry in page.entries:
            if page.status != "finished" and entry.seat is not None and entry.seat != readers_seat:
                move = entry.move.actual_instance
                assert isinstance(move, HiddenMove) and move.hidden, f"seat {readers_seat} sees {entry.to_dict()}"
        entries.extend(page.entries)
        after = page.entries[-1].seq


def main():
    rng = random.Random(7)
    name = f"py-{uuid.uuid4().hex[:8]}"
    created = UsersApi(client()).register_user(Credentials(username=name, password="generated-client"))
    player = client(created.token)
    games, moves_api = GamesApi(player), MovesApi(player)
    game_id = games.create_game(CreateGameRequest(max_players=4)).id
    for _ in range(3):
        games.join_game(game_id, join_request=JoinRequest(bot="heuristic"))
    games.start_game(game_id)
    seat, moves = 0, 0
    while True:
        view = games.get_game(game_id)
        if view.status == "finished":
            break
        assert moves < MOVE_CAP, f"no winner after {MOVE_CAP} moves"
        if seat not in view.turn.waiting_for:
            # The bots' turn: wait for their next move.
            moves_api.list_moves(game_id, after=view.version, wait=2, limit=1)
            continue
        move = pick(moves_api.legal_moves(game_id).moves, rng)
        try:
            moves_api.submit_move(game_id, move)
        except ApiException as error:
            if error.status != 429:
                raise
            # Over the move limit: wait as the server says, then read the game again.
            time.sleep(float((error.headers or {}).get("retry-after", "1")))
            continue
        moves += 1
        if moves % 100 == 0:
            read_log(moves_api, game_id, seat)
    log = read_log(MovesApi(client()), game_id, None)
    assert log[-1].seq == view.version, (log[-1].seq, view.version)
    print(
        f"generated Python client (openapi-generator python): a game of {len(log)} log entries, "
        f"{moves} moves posted, winner seat {view.winner}"
    )


main()
