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

With --bot-game-screenshot PATH, also watches a game of four built-in bots to its end and
saves the page as PATH (the picture in docs/browsers.md).

Usage: browser_check.py --base URL --chromium PATH --chromedriver PATH --screenshot PATH
"""

import argparse
import json
import random
import time
import urllib.error
import urllib.request
import uuid

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


def register(name):
    return call("POST", "/api/v1/users", body={"username": name, "password": "browser-check"})["token"]


def expected(game):
    """The pieces the board of a game resource holds, by the SVG's class names."""
    board = game["board"]
    kinds = [b["kind"] for b in board["buildings"]]
    return {
        "hex": len(board["hexes"]),
        "road": len(board["roads"]),
        "settlement": kinds.count("settlement"),
        "city": kinds.count("city"),
        "ship": len(board.get("ships") or []),
        "robber": 1 if board.get("robber") else 0,
    }


# What the page shows now: the board's counts by class, the seq it is drawn at, the seq the
# rest of the page shows, the log's length and the players' victory points.
SHOWN = """
const svg = document.querySelector('#board svg');
const count = (c) => svg ? svg.querySelectorAll('.' + c).length : null;
return {
  board_seq: svg ? Number(svg.getAttribute('data-seq')) : null,
  shown_seq: Number(document.body.dataset.shownSeq || -1),
  hex: count('hex'), road: count('road'), settlement: count('settlement'), city: count('city'),
  ship: count('ship'), robber: count('robber'),
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
        if args.bot_game_screenshot:
            bot_game(driver, args.bot_game_screenshot)
    finally:
        driver.quit()


main()
