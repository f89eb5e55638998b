"""The smallest complete bot on the Python client that openapi-python-client generates from
openapi/openapi.json (docs/bots.md): one seat against three heuristic bots, one long-poll and
one POST per move, to the end of the game.

    openapi-python-client generate --path openapi/openapi.json --meta none --output-path catan_client
    python3 examples/bot_generated_client.py http://127.0.0.1:8080 .   # the directory holding catan_client

Prints the requests per own move; exits 1 above 2.2.
"""
import random
import sys
import uuid

BASE, PACKAGE_DIR = sys.argv[1], sys.argv[2]
sys.path.insert(0, PACKAGE_DIR)

from catan_client import AuthenticatedClient, Client  # noqa: E402
from catan_client.api.games import create_game, join_game, start_game  # noqa: E402
from catan_client.api.moves import list_moves, submit_move  # noqa: E402
from catan_client.api.users import register_user  # noqa: E402
from catan_client.models import CreateGameRequest, Credentials, JoinRequest  # noqa: E402


def main():
    name = "py-bot-" + uuid.uuid4().hex[:8]
    anonymous = Client(base_url=BASE, raise_on_unexpected_status=True)
    token = register_user.sync(client=anonymous, body=Credentials(username=name, password="a-bot-password")).token
    me = AuthenticatedClient(base_url=BASE, token=token, raise_on_unexpected_status=True)
    game = create_game.sync(client=me, body=CreateGameRequest(max_players=4))
    for _ in range(3):
        join_game.sync(game.id, client=me, body=JoinRequest(bot="heuristic"))
    start_game.sync(game.id, client=me)

    choose, after, requests, own_moves = random.Random(1), 0, 0, 0
    while True:
        # Held until the game waits for this seat (or is over); brings its legal moves.
        page = list_moves.sync(game.id, client=me, after=after, wait=30, until="my_move", include="legal_moves")
        requests += 1
        if page.entries:
            after = page.entries[-1].seq
        if page.status == "finished":
            break
        if not page.legal_moves or not page.legal_moves.moves:
            continue  # `wait` ran out
        move = choose.choice(page.legal_moves.moves)
        response = submit_move.sync_detailed(game.id, client=me, body=move, if_match=f'"v{page.legal_moves.version}"')
        requests += 1
        if response.status_code == 201:
            own_moves += 1
        elif response.status_code != 412:  # 412: the game moved on; the next long-poll says how
            sys.exit(f"{move.to_dict()}: {response.status_code} {response.content[:300]!r}")
    per_move = requests / max(own_moves, 1)
    print(f"generated Python client bot: {own_moves} own moves in {requests} requests, {per_move:.2f} a move")
    if per_move > 2.2:
        sys.exit(f"{per_move:.2f} requests per own move, more than 2.2")


main()
