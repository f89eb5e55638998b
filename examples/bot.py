#!/usr/bin/env python3
"""The smallest complete bot (docs/bots.md): plays one seat of a game against the built-in
bots to the end, with one long-poll and one POST per move, and prints what it cost.

    python3 examples/bot.py [--server http://127.0.0.1:8080] [--players 4]
                            [--variant cities_and_knights] [--scenario fog_islands]
                            [--seek base [--fill-after 0] [--unrated]]
                            [--token TOKEN --wait-for-games N]
                            [--max-requests-per-move 2.2]

Python 3 standard library only. Each wake-up is `GET .../moves?after=<seq>&wait=30
&until=my_move&include=legal_moves`: the server answers once the game waits for this seat (or
is over), with the new log entries and this seat's legal moves, so the bot never polls. It
prints one JSON line: requests, own moves, requests per own move, the winner. With
`--max-requests-per-move` it exits 1 when the game cost more than that per move.

With `--seek POOL` it registers as a bot account and finds its game through matchmaking
(docs/rated-play.md) instead of creating one: it seeks a game of that pool, rated unless
`--unrated`, whose empty seats go to built-in bots after `--fill-after` seconds, and
long-polls the seek until it is matched; the JSON line then has its rating after the game.

With `--token TOKEN --wait-for-games N` it plays as that account and neither creates nor seeks
a game: it waits for games it is seated in (a bot ladder's, `catan-server ladder --server
... --account NAME=TOKEN`, docs/ladder.md), plays each to the end, one at a time, and prints a
line per game; it stops after N games.
"""
import argparse
import json
import random
import sys
import time
import urllib.error
import urllib.request
import uuid


class Api:
    def __init__(self, server):
        self.base = server.rstrip("/") + "/api/v1"
        self.token = None
        self.requests = 0

    def call(self, method, path, body=None, headers=None):
        """One request; returns (status, JSON body). Waits out a 429 and asks again."""
        while True:
            request = urllib.request.Request(self.base + path, method=method)
            if self.token:
                request.add_header("Authorization", "Bearer " + self.token)
            for name, value in (headers or {}).items():
                request.add_header(name, value)
            data = None
            if body is not None:
                data = json.dumps(body).encode()
                request.add_header("Content-Type", "application/json")
            self.requests += 1
            try:
                with urllib.request.urlopen(request, data, timeout=60) as response:
                    return response.status, json.load(response)
            except urllib.error.HTTPError as error:
                if error.code == 429:
                    time.sleep(float(error.headers.get("Retry-After", "1")))
                    continue
                return error.code, json.load(error)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", default="http://127.0.0.1:8080")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--variant")
    parser.add_argument("--scenario")
    parser.add_argument("--seed", type=int, default=1, help="the bot's own choices (not the dice)")
    parser.add_argument("--seek", metavar="POOL", help="find the game through matchmaking in this pool")
    parser.add_argument("--fill-after", type=int, default=0, help="seconds before bots fill a seek")
    parser.add_argument("--unrated", action="store_true", help="seek an unrated game")
    parser.add_argument("--max-requests-per-move", type=float)
    parser.add_argument("--token", help="play as the account of this token (with --wait-for-games)")
    parser.add_argument("--wait-for-games", type=int, metavar="N",
                        help="play the next N games this account is seated in, then stop")
    args = parser.parse_args()
    choose = random.Random(args.seed)

    api = Api(args.server)
    if args.wait_for_games is not None:
        if not args.token:
            parser.error("--wait-for-games plays as an account: give its --token")
        api.token = args.token
        status, me = api.call("GET", "/users/me")
        assert status == 200, me
        wait_for_games(api, args, choose, me["username"])
        return
    name = "bot-" + uuid.uuid4().hex[:8]
    kind = "bot" if args.seek else "human"
    status, user = api.call("POST", "/users", {"username": name, "password": "a-bot-password", "kind": kind})
    assert status == 201, user
    api.token = user["token"]
    if args.seek:
        game_id = seek_game(api, args)
    else:
        game_id = own_game(api, args)
    setup_requests, api.requests = api.requests, 0
    play(api, game_id, args, choose, name, setup_requests)


def seek_game(api, args):
    """Seeks a game and long-polls the seek until it is matched; returns the game's id."""
    seek_request = {
        "pool": args.seek,
        "players": args.players,
        "rated": not args.unrated,
        "fill_with_bots_after": args.fill_after,
    }
    status, seek = api.call("POST", "/seeks", seek_request, {"Idempotency-Key": str(uuid.uuid4())})
    assert status == 201, seek
    while seek["status"] == "waiting":
        status, seek = api.call("GET", f"/seeks/{seek['id']}?wait=60")
        assert status == 200, seek
    assert seek["status"] == "matched", seek
    return seek["game_id"]


def wait_for_games(api, args, choose, name):
    """Plays the games the account is seated in as they start, until it has played N."""
    played = set()
    while len(played) < args.wait_for_games:
        status, page = api.call("GET", "/games?mine=true&status=playing&limit=100")
        assert status == 200, page
        waiting = [g["id"] for g in page["games"] if g["id"] not in played]
        if not waiting:
            time.sleep(0.2)
            continue
        for game_id in waiting[: args.wait_for_games - len(played)]:
            played.add(game_id)
            api.requests = 0
            play(api, game_id, args, choose, name, 0)


def own_game(api, args):
    """Creates a game, seats built-in bots in the other seats and starts it."""
    game_request = {"max_players": args.players}
    if args.variant:
        game_request["variant"] = args.variant
    if args.scenario:
        game_request["scenario"] = args.scenario
    status, game = api.call("POST", "/games", game_request)
    assert status == 201, game
    game_id = game["id"]
    for _ in range(args.players - 1):
        status, seated = api.call("POST", f"/games/{game_id}/players", {"bot": "heuristic"})
        assert status == 201, seated
    status, started = api.call("POST", f"/games/{game_id}/start")
    assert status == 200, started
    return game_id


def play(api, game_id, args, choose, name, setup_requests):
    """Plays the bot's seat to the end, two requests a move, and prints what it cost."""
    after, own_moves = 0, 0
    while True:
        query = f"after={after}&wait=30&until=my_move&include=legal_moves"
        status, page = api.call("GET", f"/games/{game_id}/moves?{query}")
        assert status == 200, page
        if page["entries"]:
            after = page["entries"][-1]["seq"]
        if page["status"] == "finished":
            break
        legal = page["legal_moves"]
        if not legal["moves"]:
            continue  # `wait` ran out: ask again
        # Any legal move will do; ending the turn only when nothing else is left now and then.
        others = [m for m in legal["moves"] if m["type"] != "end_turn"]
        move = choose.choice(others if others and choose.random() < 0.7 else legal["moves"])
        status, played = api.call(
            "POST", f"/games/{game_id}/moves", move, {"If-Match": f'"v{legal["version"]}"'}
        )
        if status == 201:
            own_moves += 1
        elif status != 412:  # 412: the game moved on meanwhile; the next long-poll says how
            sys.exit(f"{move} was refused: {status} {played}")

    requests = api.requests
    per_move = requests / max(own_moves, 1)
    status, final = api.call("GET", f"/games/{game_id}")
    line = {
        "game": game_id,
        "setup_requests": setup_requests,
        "requests": requests,
        "own_moves": own_moves,
        "requests_per_move": round(per_move, 2),
        "winner": final.get("winner"),
    }
    if final.get("rated"):
        status, profile = api.call("GET", f"/users/{name}")
        rating = next(r for r in profile["ratings"] if r["pool"] == final["pool"])
        line["rating"] = {key: round(rating[key], 2) for key in ("rating", "deviation", "score")}
    print(json.dumps(line))
    if args.max_requests_per_move is not None and per_move > args.max_requests_per_move:
        sys.exit(f"{per_move:.2f} requests per own move, more than {args.max_requests_per_move}")


if __name__ == "__main__":
    main()
