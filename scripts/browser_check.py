"""Checks the spectator page (GET /games/{game_id}) in headless Chromium (issue 17).

Two players (alice, bob) play the setup of a game over the API while the page watches it as a
spectator, without a token:
- the board shows one element per hex of the game and as many roads, settlements and cities
  as the game resource has, with the log's entries and the players' victory points,
- a move posted over the API shows on the page within a second (through the event stream),
- stepping back shows the earlier position (the game resource's `?at=` numbers), and the
  first entry an empty board; the last button follows the game live again,
- an unknown game is a 404 page, `#token=` shows a seat's own view, and the browser logged
  no error.
Saves a screenshot of the page.

Then three games of built-in bots, a Seafarers, a Wonders of Catan and a Cities & Knights game,
played to their ends at once and each opened on the page, which must show what the game
resource holds (issue 30): every hex and piece (ships, the pirate, knights, walls,
metropolises, the merchant), the players' victory points and, in C&K, the knights on the board
in the players' "Knights" column; harbour labels of at least 8 px; no pirate over a harbour's
badge, at the end or at any position it was moved to; a key to C&K's triangles (metropolis and
merchant); the Aqueduct named where a C&K seat takes a resource of its choice; and the win told
as it was won (a wonder, or points). Each page is saved as a screenshot beside the first.

With --bot-game-screenshot PATH, also watches a game of four built-in bots to its end and
saves the page as PATH (the picture in docs/browsers.md).

Usage: browser_check.py --base URL --chromium PATH --chromedriver PATH --screenshot PATH
"""

import argparse
import json
import os
import random
import re
import time
import urllib.error
import urllib.request
import uuid
import xml.etree.ElementTree as ElementTree

from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

LIVE_WITHIN = 1.0  # seconds from a move's answer to the page showing it (issue 17)

args = None


def call(method, path, token=None, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(args.base + path, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        raise AssertionError(f"{method} {path}: {error.code} {error.read()[:500]!r}") from None


def text(path):
    with urllib.request.urlopen(args.base + path, timeout=30) as response:
        return response.read().decode()


def register(name):
    return call("POST", "/api/v1/users", body={"username": name, "password": "browser-check"})["token"]


def expected(game):
    """The pieces the board of a game resource holds, by the SVG's class names."""
    board = game["board"]
    kinds = [b["kind"] for b in board["buildings"]]
    counts = {
        "hex": len(board["hexes"]),
        "road": len(board["roads"]),
        "settlement": kinds.count("settlement"),
        "city": kinds.count("city"),
        "ship": len(board.get("ships") or []),
        "robber": 1 if board.get("robber") else 0,
        # PIR-11: on The Pirate Islands the pirate is drawn as the fleet only.
        "pirate": 1 if board.get("pirate") and not game.get("pirate_islands") else 0,
    }
    ck = game.get("cities_and_knights")
    if ck:
        counts["knight"] = sum(len(seat["knights"]) for seat in ck["seats"])
        counts["wall"] = sum(len(seat["walls"]) for seat in ck["seats"])
        counts["metropolis"] = sum(len(seat["metropolises"]) for seat in ck["seats"])
        counts["merchant"] = 1 if ck.get("merchant") else 0
    return counts


# What the page shows now: the board's counts by class, the seq it is drawn at, the seq the
# rest of the page shows, the log's length and the players' victory points.
SHOWN = """
const svg = document.querySelector('#board svg');
const count = (c) => svg ? svg.querySelectorAll('.' + c).length : null;
return {
  board_seq: svg ? Number(svg.getAttribute('data-seq')) : null,
  shown_seq: Number(document.body.dataset.shownSeq || -1),
  hex: count('hex'), road: count('road'), settlement: count('settlement'), city: count('city'),
  ship: count('ship'), robber: count('robber'), pirate: count('pirate'),
  knight: count('knight'), wall: count('wall'), metropolis: count('metropolis'), merchant: count('merchant'),
  log: document.querySelectorAll('#log li').length,
  log_text: [...document.querySelectorAll('#log li')].map((li) => li.textContent),
  vp: [...document.querySelectorAll('#players tbody tr[data-seat]')].map((tr) => tr.querySelector('.vp').textContent),
  names: [...document.querySelectorAll('#players tbody tr[data-seat] .who')].map((n) => n.textContent),
  error: document.getElementById('error').hidden ? null : document.getElementById('error').textContent,
};
"""


def shown(driver):
    return driver.execute_script(SHOWN)


def wait_for_seq(driver, seq, timeout=10.0):
    """Waits until board and page both show entry `seq`; returns what the page shows."""
    last = {}

    def ready(d):
        nonlocal last
        last = shown(d)
        return last if last["board_seq"] == seq and last["shown_seq"] == seq else False

    try:
        return WebDriverWait(driver, timeout, poll_frequency=0.02).until(ready)
    except TimeoutException:
        raise AssertionError(f"the page did not show entry {seq} within {timeout} s: {summary(last)}") from None


def summary(state):
    return {k: v for k, v in state.items() if k not in ("log_text",)}


def assert_board(state, game, label):
    counts = expected(game)
    got = {k: state[k] for k in counts}
    assert got == counts, f"{label}: the page shows {got}, the game has {counts}"


# What the page shows of the expansions: the rendered size of the harbour labels, whether the
# pirate's boat covers a harbour's badge (circle against box, in page pixels), the key to C&K's
# triangles, and the players' "Knights" column.
SHOWN_EXTRAS = """
const svg = document.querySelector('#board svg');
const scale = svg.getScreenCTM().a;
const labels = [...svg.querySelectorAll('.harbour text')].map((t) => Number(t.getAttribute('font-size')) * scale);
const pirate = svg.querySelector('.pirate');
let covered = [];
if (pirate) {
  const box = pirate.getBoundingClientRect();
  for (const badge of svg.querySelectorAll('.harbour circle')) {
    const b = badge.getBoundingClientRect();
    const [cx, cy, r] = [b.x + b.width / 2, b.y + b.height / 2, b.width / 2];
    const dx = Math.max(box.left - cx, 0, cx - box.right), dy = Math.max(box.top - cy, 0, cy - box.bottom);
    if (Math.hypot(dx, dy) < r - 0.5) covered.push(badge.parentElement.getAttribute('data-edge'));
  }
}
return {
  smallest_label: labels.length ? Math.min(...labels) : null,
  labels: labels.length,
  pirate_covers: covered,
  key: [...svg.querySelectorAll('.pieces-key [data-key]')].map((k) => k.getAttribute('data-key')),
  key_text: [...svg.querySelectorAll('.pieces-key text')].map((t) => t.textContent).join(' '),
  knights: [...document.querySelectorAll('#players tbody tr[data-seat]')].map((tr) => tr.querySelector('.knights').textContent),
  knights_title: document.getElementById('knights-heading').title,
};
"""

HARBOUR_LABEL_PX = 8.0  # the smallest harbour label on the page, in CSS pixels (issue 30: ~6)


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = args.chromium
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--window-size=1200,800", "--hide-scrollbars", "--force-device-scale-factor=1"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(executable_path=args.chromedriver), options=options)
    # The page itself 1200 x 800, whatever the window around it takes.
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 1200, "height": 800, "deviceScaleFactor": 1, "mobile": False})
    return driver


def browser_errors(driver):
    return [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def play_setup(driver):
    rng = random.Random(17)
    tag = uuid.uuid4().hex[:6]
    names = [f"alice-{tag}", f"bob-{tag}"]
    tokens = [register(name) for name in names]
    game = call("POST", "/api/v1/games", tokens[0], {"max_players": 2, "board": "random"})
    game_id = game["id"]
    call("POST", f"/api/v1/games/{game_id}/players", tokens[1], {})
    game = call("POST", f"/api/v1/games/{game_id}/start", tokens[0])
    assert game["links"]["spectator"] == f"/games/{game_id}", game["links"]

    driver.get(args.base + game["links"]["spectator"])
    state = wait_for_seq(driver, game["version"])
    assert_board(state, game, "at the start")
    assert state["hex"] > 0 and state["settlement"] == 0, summary(state)
    assert sorted(state["names"]) == sorted(names), state["names"]
    assert state["log"] == game["version"], summary(state)

    # Each setup move shows on the page within a second of its answer, live.
    slowest = 0.0
    while True:
        game = call("GET", f"/api/v1/games/{game_id}")
        if game["turn"]["number"] > 0:
            break
        seat = game["turn"]["active_seat"]
        # A settlement, then a road, then the next seat: setup offers nothing else.
        move = rng.choice(call("GET", f"/api/v1/games/{game_id}/legal-moves", tokens[seat])["moves"])
        answer = call("POST", f"/api/v1/games/{game_id}/moves", tokens[seat], move)
        posted = time.monotonic()
        state = wait_for_seq(driver, answer["version"], timeout=5.0)
        took = time.monotonic() - posted
        slowest = max(slowest, took)
        assert took < LIVE_WITHIN, f"{move['type']} showed after {took:.2f} s"
        where = move.get("vertex", move.get("edge"))
        piece = "settlement" if move["type"] == "build_settlement" else "road"
        attribute = "data-vertex" if piece == "settlement" else "data-edge"
        found = driver.find_elements(By.CSS_SELECTOR, f'#board svg .{piece}[{attribute}="{where}"]')
        assert found, f"no {piece} at {where} on the page after {move}"
        assert names[seat] in state["log_text"][-1], state["log_text"][-1]
    game = call("GET", f"/api/v1/games/{game_id}")
    state = wait_for_seq(driver, game["version"])
    assert_board(state, game, "after the setup")
    assert state["log"] == game["version"], summary(state)
    assert state["vp"] == [str(p["victory_points"]) for p in game["players"]], (state["vp"], game["players"])
    print(f"browser-check: {game['version']} entries shown live, each within {slowest * 1000:.0f} ms of its answer")
    return game_id, game, tokens, names


def step_back(driver, game_id, game):
    latest = game["version"]
    driver.find_element(By.ID, "back").click()
    state = wait_for_seq(driver, latest - 1)
    earlier = call("GET", f"/api/v1/games/{game_id}?at={latest - 1}")
    assert earlier["version"] == latest - 1, earlier["version"]
    assert_board(state, earlier, f"one step back, at {latest - 1}")
    assert state["road"] == expected(game)["road"] - 1, "the setup's last move, a road, is gone one step back"

    driver.find_element(By.ID, "first").click()
    state = wait_for_seq(driver, 1)
    assert_board(state, call("GET", f"/api/v1/games/{game_id}?at=1"), "at the first entry")
    assert state["road"] == state["settlement"] == 0, summary(state)

    driver.find_element(By.ID, "forward").click()
    state = wait_for_seq(driver, 2)
    assert state["settlement"] == 1, summary(state)

    driver.find_element(By.ID, "last").click()
    state = wait_for_seq(driver, latest)
    assert_board(state, game, "back at the latest entry")
    print("browser-check: stepping back, to the start, forward and to the latest entry shows each position")


def seat_view(driver, game_id, token, name):
    """With `#token=` the page shows that seat's view: its own hand, "you" beside its name."""
    driver.get(f"{args.base}/games/{game_id}#token={token}")
    game = call("GET", f"/api/v1/games/{game_id}", token)
    wait_for_seq(driver, game["version"])
    you = driver.find_elements(By.CSS_SELECTOR, f'#players tr[data-seat="{game["you"]}"] .tag')
    assert "you" in [tag.text for tag in you], f"no 'you' beside {name}"
    players = driver.find_element(By.ID, "players").text
    assert name in players and "your hand: " in players, players


def not_found(driver):
    driver.get(f"{args.base}/games/{uuid.uuid4()}")
    assert driver.find_element(By.TAG_NAME, "h1").text == "No such game", driver.page_source[:500]


def bot_game(driver, path):
    host = register(f"host-{uuid.uuid4().hex[:6]}")
    game = call("POST", "/api/v1/games", host, {"max_players": 4, "board": "random", "seat_creator": False})
    game_id = game["id"]
    for _ in range(4):
        call("POST", f"/api/v1/games/{game_id}/players", host, {"bot": "heuristic"})
    call("POST", f"/api/v1/games/{game_id}/start", host)
    # The page follows the bots live until the end.
    driver.get(f"{args.base}/games/{game_id}")
    deadline = time.monotonic() + 120
    while call("GET", f"/api/v1/games/{game_id}")["status"] != "finished":
        assert time.monotonic() < deadline, "the bots' game did not end in 2 minutes"
        time.sleep(0.5)
    game = call("GET", f"/api/v1/games/{game_id}")
    state = wait_for_seq(driver, game["version"])
    assert_board(state, game, "the bots' game")
    driver.save_screenshot(path)
    print(f"browser-check: a bots' game of {game['version']} entries: {path}")


def finished_bot_games(requests):
    """Creates a game of four heuristic bots for each request, all at once; returns them ended."""
    host = register(f"host-{uuid.uuid4().hex[:6]}")
    ids = []
    for request in requests:
        game = call("POST", "/api/v1/games", host, {"board": "random", "seat_creator": False, **request})
        for _ in range(game["max_players"]):
            call("POST", f"/api/v1/games/{game['id']}/players", host, {"bot": "heuristic"})
        call("POST", f"/api/v1/games/{game['id']}/start", host)
        ids.append(game["id"])
    deadline = time.monotonic() + 240
    games = {}
    while len(games) < len(ids):
        assert time.monotonic() < deadline, f"the bots' games did not end in 4 minutes: {set(ids) - set(games)}"
        for game_id in ids:
            if game_id not in games:
                game = call("GET", f"/api/v1/games/{game_id}")
                if game["status"] == "finished":
                    games[game_id] = game
        time.sleep(0.5)
    return [games[game_id] for game_id in ids]


def read_log(game_id):
    after, entries = 0, []
    while True:
        page = call("GET", f"/api/v1/games/{game_id}/moves?after={after}&limit=1000")
        if not page["entries"]:
            return entries
        entries.extend(page["entries"])
        after = page["entries"][-1]["seq"]


def pirate_clear_in_svg(game_id, seq):
    """Whether board.svg at `seq` has its pirate's boat clear of every harbour badge."""
    root = ElementTree.fromstring(text(f"/api/v1/games/{game_id}/board.svg?at={seq}"))
    ns = "{http://www.w3.org/2000/svg}"
    pirate = next((g for g in root.iter(ns + "g") if g.get("class") == "pirate"), None)
    if pirate is None:
        return True
    x, y = map(float, re.match(r"translate\(([-\d.]+) ([-\d.]+)\)", pirate.get("transform")).groups())
    left, right, top, bottom = x - 13, x + 13, y - 13, y + 6  # the boat's box around its anchor
    for harbour in root.iter(ns + "g"):
        if harbour.get("class") != "harbour":
            continue
        badge = harbour.find(ns + "circle")
        cx, cy, r = (float(badge.get(k)) for k in ("cx", "cy", "r"))
        dx, dy = max(left - cx, 0, cx - right), max(top - cy, 0, cy - bottom)
        if (dx * dx + dy * dy) ** 0.5 < r - 0.5:
            return False
    return True


def expansion_games(driver):
    """Seafarers games (The Four Islands, The New World, The Forgotten Tribe, Cloth for Catan,
    The Pirate Islands),
    a Wonders and a C&K game of bots: the page shows what each game holds."""
    started = time.monotonic()
    requests = [
        {"variant": "seafarers", "scenario": "four_islands", "max_players": 4},
        {"variant": "seafarers", "scenario": "new_world", "max_players": 4},
        {"variant": "seafarers", "scenario": "forgotten_tribe", "max_players": 4},
        {"variant": "seafarers", "scenario": "cloth_for_catan", "max_players": 4},
        {"variant": "seafarers", "scenario": "pirate_islands", "max_players": 4},
        {"variant": "wonders", "max_players": 4},
        {"variant": "cities_and_knights", "max_players": 4},
    ]
    games = finished_bot_games(requests)
    print(f"browser-check: {len(games)} bots' games (Seafarers, Wonders, C&K) played in {time.monotonic() - started:.1f} s")
    for request, game in zip(requests, games):
        label = request.get("scenario", request["variant"])
        game_id = game["id"]
        driver.get(f"{args.base}/games/{game_id}")
        state = wait_for_seq(driver, game["version"], timeout=20.0)
        assert_board(state, game, label)
        assert state["vp"] == [str(p["victory_points"]) for p in game["players"]], (label, state["vp"])
        extras = driver.execute_script(SHOWN_EXTRAS)
        log = read_log(game_id)
        lines = state["log_text"]
        assert len(lines) == len(log), (label, len(lines), len(log))
        if game["board"]["harbours"]:
            assert extras["smallest_label"] >= HARBOUR_LABEL_PX, \
                f"{label}: a harbour label is {extras['smallest_label']:.1f} px on the page"
        assert not extras["pirate_covers"], f"{label}: the pirate covers the harbours at {extras['pirate_covers']}"
        moved = [entry["seq"] for entry in log if any(e["type"] == "pirate_moved" for e in entry["events"])]
        for seq in moved:
            assert pirate_clear_in_svg(game_id, seq), f"{label}: the pirate covers a harbour after entry {seq}"
        ck = game.get("cities_and_knights")
        if ck:
            on_board = [str(len(next(s for s in ck["seats"] if s["seat"] == p["seat"])["knights"])) for p in game["players"]]
            assert extras["knights"] == on_board, f"{label}: the Knights column shows {extras['knights']}, the board {on_board}"
            assert extras["knights_title"] == "Knights on the board", extras["knights_title"]
            assert "metropolis" in extras["key"] and "merchant" in extras["key"], f"{label}: no key to the triangles"
            assert "metropolis" in extras["key_text"] and "merchant" in extras["key_text"], extras["key_text"]
        rolled, aqueducts = False, 0
        for entry, line in zip(log, lines):
            kinds = [e["type"] for e in entry["events"]]
            assert "gold resources taken" not in line.lower(), f"{label}: entry {entry['seq']} reads {line!r}"
            if ck and rolled and "gold_resources_taken" in kinds:
                assert "with the Aqueduct" in line, f"{label}: an Aqueduct pick reads {line!r}"
                aqueducts += 1
            rolled = rolled or "dice_rolled" in kinds
            won = next((e for e in entry["events"] if e["type"] == "game_won"), None)
            if won:
                condition = won.get("condition", "victory_points")
                if condition == "wonder_completed":
                    assert "by completing a wonder" in line, f"{label}: a wonder's win reads {line!r}"
                else:
                    assert f"with {won['victory_points']} points" in line, f"{label}: the win reads {line!r}"
        assert any(e["type"] == "game_won" for e in log[-1]["events"]), f"{label}: the log ends without a win"
        tribe = game.get("forgotten_tribe")
        if tribe:
            # SCN-3, FTR-7: the neutral islands and the gifts left are drawn; the page lists them.
            root = ElementTree.fromstring(text(f"/api/v1/games/{game_id}/board.svg"))
            classes = [g.get("class") or "" for g in root.iter("{http://www.w3.org/2000/svg}g")]
            assert sum("neutral" in c.split() for c in classes) == len(game["board"]["neutral"]) == 12, label
            assert sum(c == "gift" for c in classes) == len(tribe["gifts"]), label
            panel = driver.execute_script("return document.getElementById('extras').innerText")
            assert "The tribe's gifts" in panel, f"{label}: the page shows no gifts: {panel!r}"
            claims = sum(e["type"] == "gift_claimed" for entry in log for e in entry["events"])
            assert claims == len(tribe["claimed"]), (label, claims, len(tribe["claimed"]))
        cloth = game.get("cloth_for_catan")
        if cloth:
            # CLV-5: every village is drawn with its number and cloth; the page lists them.
            root = ElementTree.fromstring(text(f"/api/v1/games/{game_id}/board.svg"))
            drawn = [g for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("class") == "village"]
            assert len(drawn) == len(cloth["villages"]) == 8, (label, len(drawn))
            for village, g in zip(cloth["villages"], drawn):
                assert g.get("data-vertex") == village["vertex"], (label, g.get("data-vertex"), village["vertex"])
                assert g.get("data-cloth") == str(village["cloth"]), (label, village)
            panel = driver.execute_script("return document.getElementById('extras').innerText")
            assert "Villages and cloth" in panel, f"{label}: the page shows no villages: {panel!r}"
        pirates = game.get("pirate_islands")
        if pirates:
            # PIR-4/7/11: the lanes, the fleet while it sails and the fortresses standing are drawn.
            root = ElementTree.fromstring(text(f"/api/v1/games/{game_id}/board.svg"))
            classes = [g.get("class") or "" for g in root.iter("{http://www.w3.org/2000/svg}g")]
            assert classes.count("lane") == len(pirates["seats"]), (label, classes.count("lane"))
            standing = sum(s["fortress_strength"] > 0 for s in pirates["seats"])
            assert classes.count("fortress") == standing, (label, classes.count("fortress"), standing)
            assert classes.count("fleet") == (0 if pirates["fleet_defeated"] else 1), label
            panel = driver.execute_script("return document.getElementById('extras').innerText")
            assert "The pirate islands" in panel, f"{label}: the page shows no fortresses: {panel!r}"
        errors = browser_errors(driver)
        assert not errors, f"{label}: the browser logged errors: {errors}"
        shot = os.path.join(os.path.dirname(args.screenshot), f"spectator-{label}.png")
        driver.save_screenshot(shot)
        print(f"browser-check: {label}: {game['version']} entries, won by {game.get('won_by')}; "
              f"smallest harbour label {extras['smallest_label'] or 0:.1f} px, the pirate moved {len(moved)} times, "
              f"{aqueducts} Aqueduct picks; {shot}")


def main():
    global args
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", required=True)
    parser.add_argument("--chromium", required=True)
    parser.add_argument("--chromedriver", required=True)
    parser.add_argument("--screenshot", required=True)
    parser.add_argument("--bot-game-screenshot")
    args = parser.parse_args()
    driver = browser()
    try:
        game_id, game, tokens, names = play_setup(driver)
        step_back(driver, game_id, game)
        driver.save_screenshot(args.screenshot)
        errors = browser_errors(driver)
        assert not errors, f"the browser logged errors: {errors}"
        not_found(driver)
        seat_view(driver, game_id, tokens[0], names[0])
        # The 404 itself is logged as a failed load; nothing else may be.
        errors = [e for e in browser_errors(driver) if "404" not in e["message"]]
        assert not errors, f"the browser logged errors: {errors}"
        expansion_games(driver)
        if args.bot_game_screenshot:
            bot_game(driver, args.bot_game_screenshot)
    finally:
        driver.quit()


main()
