"""Plays a complete game through the Python client generated from openapi/openapi.json.

The client is used as generated, unmodified (issue 16): every request goes through its typed
API functions, and every response is parsed into its typed models, which fails on anything the
spec does not describe. Two players play random legal moves (weighted toward building, like the
engine's random bot) against two heuristic bots until the game ends; then every page of the log
is read, as each player while the game ran and as a spectator after.

Usage: python3 scripts/clients/openapi_python_client.py <base URL> <directory holding the generated package>
"""

import random
import sys
import time
import uuid

BASE, PACKAGE_DIR = sys.argv[1], sys.argv[2]
sys.path.insert(0, PACKAGE_DIR)

from catan_client import AuthenticatedClient, Client  # noqa: E402
from catan_client.api.games import create_game, get_game, join_game, start_game  # noqa: E402
from catan_client.api.moves import legal_moves, list_moves, submit_move  # noqa: E402
from catan_client.api.users import me, register_user  # noqa: E402
from catan_client.models import (  # noqa: E402
    CreateGameRequest,
    Credentials,
    GameResponse,
    HiddenMove,
    JoinRequest,
    LegalMovesResponse,
    MoveLogResponse,
    Problem,
)

MOVE_CAP = 5000
# Moves that build something come first when listed (as the engine's random bot weighs them),
# so that the game ends.
BUILDING = ("build_city", "build_settlement", "buy_development_card", "build_road")


def expect(response, model, status):
    assert response.status_code == status, f"{response.status_code}: {response.content[:500]!r}"
    assert isinstance(response.parsed, model), f"parsed as {type(response.parsed)}: {response.content[:500]!r}"
    return response.parsed


def register(name):
    anonymous = Client(base_url=BASE, raise_on_unexpected_status=True)
    body = Credentials(username=name, password="generated-client")
    created = expect(register_user.sync_detailed(client=anonymous, body=body), object, 201)
    client = AuthenticatedClient(base_url=BASE, token=created.token, raise_on_unexpected_status=True)
    assert me.sync_detailed(client=client).parsed.username == name
    return client


def pick(moves, rng):
    kinds = [m.to_dict()["type"] for m in moves]
    for kind in BUILDING:
        if kind in kinds and rng.random() < 0.7:
            return moves[kinds.index(kind)]
    return rng.choice(moves)


def read_log(client, game_id, readers_seat):
    """Every page of the log, parsed; other seats' moves are hidden while the game runs."""
    after, entries = 0, []
    while True:
        page = expect(list_moves.sync_detailed(game_id, client=client, after=after, limit=1000), MoveLogResponse, 200)
        if not page.entries:
            return entries
        for entry in page.entries:
            if page.status != "finished" and entry.seat is not None and entry.seat != readers_seat:
                assert isinstance(entry.move, HiddenMove), f"seat {readers_seat} sees {entry.to_dict()}"
        entries.extend(page.entries)
        after = page.entries[-1].seq


def main():
    rng = random.Random(7)
    tag = uuid.uuid4().hex[:8]
    alice, bob = register(f"alice-{tag}"), register(f"bob-{tag}")
    game = expect(
        create_game.sync_detailed(client=alice, body=CreateGameRequest(max_players=4)), GameResponse, 201
    )
    game_id = game.id
    # `{}` joins oneself (the generated client sends no body only as JSON null).
    expect(join_game.sync_detailed(game_id, client=bob, body=JoinRequest()), GameResponse, 201)
    for _ in range(2):
        expect(join_game.sync_detailed(game_id, client=alice, body=JoinRequest(bot="heuristic")), GameResponse, 201)
    expect(start_game.sync_detailed(game_id, client=alice), GameResponse, 200)
    players = {0: alice, 1: bob}
    moves = 0
    while True:
        view = expect(get_game.sync_detailed(game_id, client=alice), GameResponse, 200)
        if view.status == "finished":
            break
        assert moves < MOVE_CAP, f"no winner after {MOVE_CAP} moves"
        waiting = [seat for seat in view.turn.waiting_for if seat in players]
        if not waiting:
            # The bots' turn: wait for their next move.
            list_moves.sync_detailed(game_id, client=alice, after=view.version, wait=2, limit=1)
            continue
        seat = waiting[0]
        legal = expect(legal_moves.sync_detailed(game_id, client=players[seat]), LegalMovesResponse, 200)
        move = pick(legal.moves, rng)
        response = submit_move.sync_detailed(game_id, client=players[seat], body=move)
        if response.status_code == 429:
            # Over the move limit: wait as the server says, then read the game again.
            time.sleep(float(response.headers.get("retry-after", "1")))
            continue
        assert response.status_code == 201, f"{move.to_dict()}: {response.content[:500]!r}"
        assert not isinstance(response.parsed, Problem)
        moves += 1
        if moves % 200 == 0:
            for reader, client in players.items():
                read_log(client, game_id, reader)
    spectator = Client(base_url=BASE, raise_on_unexpected_status=True)
    log = read_log(spectator, game_id, None)
    assert log[-1].seq == view.version, (log[-1].seq, view.version)
    print(f"generated Python client: a game of {len(log)} log entries, {moves} moves posted, winner seat {view.winner}")


main()
