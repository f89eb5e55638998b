// The spectator page: draws one game from the public API and follows it live.
//
// The board is the server's board.svg, inlined so that its pieces are part of the page; the
// players' state comes from the game resource, the log from GET .../moves, live updates from
// the event stream, and replays from `?at=<seq>` on both. Every text that comes from the
// server is set as text (textContent), never as markup: a player's name cannot inject HTML.
//
// Optional: `#token=<JWT>` in the address shows the game as that token's seat sees it (the
// fragment never leaves the browser; the stream then opens with a stream ticket).
"use strict";

(() => {
  const gameId = document.body.dataset.game;
  const api = `/api/v1/games/${gameId}`;
  const token = new URLSearchParams(location.hash.slice(1)).get("token");
  const auth = token ? { Authorization: `Bearer ${token}` } : {};
  // A seat's view bypasses the browser's cache: the live game's ETag ("v<version>") is the
  // same for every reader, so a revalidated spectator copy would come back as "not modified".
  const cache = token ? "no-store" : "default";
  const $ = (id) => document.getElementById(id);

  const state = {
    game: null, // the latest game resource (for names and the end of the slider)
    latest: 0, // the highest seq known
    first: 1, // the first seq (the game's start entry)
    following: true, // showing the latest entry, moving on with each new one
    target: null, // the seq asked for (null: the latest)
    loading: false,
    again: false,
    entries: new Map(), // seq -> the log line's <li>
    types: new Map(), // seq -> the types of its events (what a gold pick was for)
    source: null,
    ratings: new Map(), // account name -> its rating in the game's pool (a rated game), or null
  };

  // ---- helpers ---------------------------------------------------------------------------

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === undefined || value === null || value === false) continue;
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = value;
      else if (key.startsWith("data-")) node.setAttribute(key, String(value));
      else node.setAttribute(key, String(value));
    }
    for (const child of children) {
      if (child === null || child === undefined) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  async function getJson(url) {
    const response = await fetch(url, { headers: { Accept: "application/json", ...auth }, cache });
    const body = await response.json().catch(() => null);
    if (!response.ok) {
      const detail = body && (body.detail || body.title);
      throw new Error(`${response.status} ${detail || response.statusText}`);
    }
    return body;
  }

  function showError(message) {
    const error = $("error");
    error.hidden = !message;
    error.textContent = message || "";
  }

  function humanize(snake) {
    const words = String(snake).replace(/_/g, " ");
    return words.charAt(0).toUpperCase() + words.slice(1);
  }

  function seatName(seat) {
    if (seat === null || seat === undefined) return "";
    const player = state.game && state.game.players.find((p) => p.seat === seat);
    if (!player) return `seat ${seat}`;
    if (player.username) return player.username;
    // An imported game's seats name players of the server it was played on.
    if (player.imported_name) return player.imported_name;
    if (player.bot) return `bot ${seat}`;
    return `seat ${seat}`;
  }

  // A seat's name with its colour, as a DOM node.
  function who(seat) {
    return el("span", { class: `who seat-${seat}`, "data-seat": seat }, seatName(seat));
  }

  function cards(counts) {
    if (!counts) return "";
    const parts = Object.entries(counts)
      .filter(([, n]) => n > 0)
      .map(([kind, n]) => `${n} ${kind.replace(/_/g, " ")}`);
    return parts.length ? parts.join(", ") : "nothing";
  }

  function total(counts) {
    return counts ? Object.values(counts).reduce((a, b) => a + b, 0) : 0;
  }

  // A hex ("q,r") by what is on it, e.g. "hills 8 (1,-2)".
  function hex(h) {
    const tile = state.game && state.game.board && state.game.board.hexes.find((t) => t.hex === h);
    if (!tile) return `hex ${h}`;
    return `${tile.terrain}${tile.number ? ` ${tile.number}` : ""} (${h})`;
  }

  // ---- the log as readable lines -------------------------------------------------------

  // Why a seat took cards of its choice outside production: the gold field of its second
  // setup settlement, a gold field it discovered (fog revealed just before), or, in Cities &
  // Knights (whose every roll throws the event die), the Aqueduct after a roll that gave it
  // nothing.
  function goldReason(entry) {
    const before = state.types.get(entry.seq - 1) || [];
    if (before.includes("fog_revealed") || (entry.events || []).some((e) => e.type === "fog_revealed")) return "discovery";
    const earlier = [...state.types].some(([seq, types]) => seq < entry.seq && types.includes("event_die_rolled"));
    return earlier ? "aqueduct" : "gold";
  }

  // How a game was won, after "won the game".
  function victory(e) {
    const points = `${e.victory_points} points`;
    switch (e.condition) {
      case "wonder_completed":
        return ` by completing a wonder (with ${points})!`;
      case "victory_points_and_wonder_lead":
        return ` with ${points} and the most wonder stages built!`;
      case "turn_limit":
        return ` at the turn limit, with ${points}!`;
      case "villages_exhausted":
        return ` when the villages ran out of cloth, with ${points}!`;
      default:
        return ` with ${points}!`;
    }
  }

  // One event as a list of strings and nodes; null hides it (turn bookkeeping).
  function describe(e, entry) {
    const s = e.seat;
    switch (e.type) {
      case "game_started":
        return [`Game started with ${e.players} players; `, who(e.first_seat), " begins"];
      case "position_set":
        return [`It starts from a prepared position, at turn ${(e.position && e.position.turn && e.position.turn.number) || 0}`];
      case "phase_changed":
      case "trades_expired":
        return null;
      case "turn_started":
        return null;
      case "settlement_built":
        return [who(s), ` built a settlement at vertex ${e.vertex}`];
      case "city_built":
        return [who(s), ` built a city at vertex ${e.vertex}`];
      case "road_built":
        return [who(s), ` built a road at edge ${e.edge}`];
      case "ship_built":
        return [who(s), ` built a ship at edge ${e.edge}`];
      case "ship_moved":
        return [who(s), ` moved a ship from edge ${e.from} to ${e.to}`];
      case "harbour_drawn":
        return [who(s), ` drew a ${e.kind} harbour`];
      case "harbour_placed":
        return [who(s), ` placed a ${e.kind} harbour at edge ${e.edge}`];
      case "gift_claimed":
        return [who(s), ` claimed the tribe's ${humanize(e.gift).toLowerCase()} gift at edge ${e.edge}`];
      case "victory_point_gifted":
        return [who(s), " gained a victory point from the tribe"];
      case "development_card_gifted":
        return [who(s), ` received a development card from the tribe${e.card ? ` (${humanize(e.card).toLowerCase()})` : ""}`];
      case "harbour_taken":
        return [who(s), ` took the ${e.kind} harbour from edge ${e.from_edge}`];
      case "village_connected":
        return [who(s), ` reached the village at ${e.village}`];
      case "cloth_received": {
        const parts = [];
        (e.recipients || []).forEach((r, i) => {
          if (i) parts.push(", ");
          parts.push(who(r));
        });
        const supply = e.from_supply ? ` (${e.from_supply} from the supply)` : "";
        return [...parts, ` received cloth from the village at ${e.village}${supply}`];
      }
      case "cloth_stolen":
        return [who(e.thief), " took a cloth from ", who(e.victim)];
      case "fortress_placed":
        return [who(s), `'s fortress stands at ${e.vertex} (strength ${e.strength})`];
      case "pirate_fleet_moved":
        return [`the pirate fleet sailed ${e.steps} to ${e.to} (strength ${e.strength})`];
      case "fleet_attack":
        return ["the fleet attacked ", who(s), ` (${e.warships} warships against ${e.strength}): ${e.outcome}${e.cards_lost ? `, ${e.cards_lost} cards lost` : ""}`];
      case "ship_became_warship":
        return [who(s), ` made the ship at ${e.edge} a warship`];
      case "fortress_attacked":
        return [who(s), ` attacked their fortress (${e.warships} warships against ${e.defence_roll}): ${e.outcome}${(e.ships_lost || []).length ? `, ${e.ships_lost.length} ships lost` : ""}`];
      case "fortress_conquered":
        return [who(s), ` conquered their fortress at ${e.vertex}`];
      case "pirate_fleet_defeated":
        return ["the pirate fleet is defeated and leaves the board"];
      case "steal_skipped":
        return [who(s), " had nobody to steal from"];
      case "village_exhausted":
        return [`the village at ${e.village} has no cloth left`];
      case "dice_rolled":
        return [who(s), ` rolled ${e.red} + ${e.white} = ${e.red + e.white}`];
      case "resources_produced": {
        const gains = (e.gains || []).filter((g) => total(g.resources) > 0);
        if (!gains.length) return [`nothing produced on a ${e.roll}`];
        const parts = [];
        gains.forEach((g, i) => {
          if (i) parts.push("; ");
          parts.push(who(g.seat), ` got ${cards(g.resources)}`);
        });
        return parts;
      }
      case "starting_resources_received":
        return [who(s), ` received ${cards(e.resources)}`];
      case "resources_discarded":
        return [who(s), ` discarded ${e.resources ? cards(e.resources) : `${e.count} cards`}`];
      case "robber_moved":
        return [who(s), ` moved the robber to ${hex(e.hex)}`];
      case "pirate_moved":
        return [who(s), ` moved the pirate to ${hex(e.hex)}`];
      case "resource_stolen":
        return [who(e.thief), ` stole ${e.resource ? `a ${e.resource}` : "a card"} from `, who(e.victim)];
      case "development_card_bought":
        return [who(s), ` bought a development card${e.card ? ` (${humanize(e.card).toLowerCase()})` : ""}`];
      case "knight_played":
        return [who(s), " played a knight"];
      case "road_building_played":
        return [who(s), " played Road Building"];
      case "year_of_plenty_played":
        return [who(s), ` played Year of Plenty: ${cards(e.resources)}`];
      case "monopoly_played":
        return [who(s), ` played Monopoly on ${e.resource}`];
      case "bank_traded":
        return [who(s), ` traded ${cards(e.give)} with the bank for ${cards(e.get)}`];
      case "trade_offered":
        return [who(e.offer && e.offer.from), ` offered ${cards(e.offer && e.offer.give)} for ${cards(e.offer && e.offer.get)}`];
      case "trade_accepted":
        return [who(s), ` accepted offer ${e.offer_id}`];
      case "trade_declined":
        return [who(s), ` declined offer ${e.offer_id}`];
      case "trade_withdrawn":
        return [`Offer ${e.offer_id} withdrawn`];
      case "trade_completed":
        return [who(e.from), ` traded ${cards(e.give)} to `, who(e.with), ` for ${cards(e.get)}`];
      case "largest_army_changed":
        return e.holder === null || e.holder === undefined
          ? ["Nobody holds the largest army"]
          : [who(e.holder), " now holds the largest army"];
      case "longest_road_changed":
        return e.holder === null || e.holder === undefined
          ? ["Nobody holds the longest road"]
          : [who(e.holder), ` now holds the longest road (${e.length})`];
      case "game_won":
        return [who(s), ` won the game${victory(e)}`];
      case "gold_resources_taken": {
        const reason = goldReason(entry);
        if (reason === "aqueduct") return [who(s), ` took ${cards(e.resources)} with the Aqueduct`];
        if (reason === "discovery") return [who(s), ` took ${cards(e.resources)} for the gold field found`];
        return [who(s), ` took ${cards(e.resources)} from a gold field`];
      }
      case "event_die_rolled":
        return [who(s), ` rolled the event die: ${humanize(e.face).toLowerCase()}`];
      case "barbarians_advanced":
        return [`The barbarians advanced to ${e.position}`];
      case "barbarians_attacked":
        return [`The barbarians attacked: strength ${e.strength} against ${e.defence}`];
      case "commodities_produced": {
        const gains = (e.gains || []).filter((g) => total(g.commodities) > 0);
        const parts = [];
        gains.forEach((g, i) => parts.push(i ? "; " : "", who(g.seat), ` got ${cards(g.commodities)}`));
        return parts.length ? parts : null;
      }
      case "improvement_built":
        return [who(s), ` improved ${e.track} to level ${e.level}`];
      case "knight_recruited":
        return [who(s), ` recruited a knight at vertex ${e.vertex}`];
      case "city_pillaged":
        return [who(s), ` lost a city to the barbarians at vertex ${e.vertex}`];
      case "progress_card_played":
        return [who(s), ` played ${humanize((e.play && (e.play.card || e.play.type)) || "a progress card").toLowerCase()}`];
      default: {
        // Everything else (Seafarers, Cities & Knights, Wonders): its type in words, with
        // the seat that did it.
        const actor = [s, e.thief, e.holder].find((x) => typeof x === "number");
        return actor === undefined ? [humanize(e.type)] : [who(actor), `: ${humanize(e.type).toLowerCase()}`];
      }
    }
  }

  function logLine(entry) {
    const parts = [];
    for (const event of entry.events || []) {
      const described = describe(event, entry);
      if (!described) continue;
      if (parts.length) parts.push(" · ");
      parts.push(...described);
    }
    if (!parts.length) {
      parts.push(entry.seat === null || entry.seat === undefined ? "" : who(entry.seat), ` ${humanize(entry.kind).toLowerCase()}`);
    }
    if (entry.auto) parts.push(" (turn timer)");
    const li = el(
      "li",
      { "data-seq": entry.seq, title: `${entry.kind} at ${entry.created_at}` },
      el("button", { type: "button", class: "seq", "data-seq": entry.seq, title: "Show the game after this entry" }, String(entry.seq)),
      " ",
      ...parts,
    );
    return li;
  }

  function addEntry(entry) {
    if (state.entries.has(entry.seq)) return;
    state.types.set(entry.seq, (entry.events || []).map((e) => e.type));
    const li = logLine(entry);
    state.entries.set(entry.seq, li);
    const log = $("log");
    // Usually in order; a resumed stream may repeat or fill in.
    const next = [...log.children].find((c) => Number(c.dataset.seq) > entry.seq);
    log.insertBefore(li, next || null);
    if (entry.kind === "start") state.first = Math.min(state.first, entry.seq);
    if (entry.seq > state.latest) {
      state.latest = entry.seq;
      updateSlider();
    }
  }

  async function loadLog() {
    let after = 0;
    for (;;) {
      const page = await getJson(`${api}/moves?after=${after}&limit=1000`);
      for (const entry of page.entries) addEntry(entry);
      if (!page.entries.length) return after;
      after = page.entries[page.entries.length - 1].seq;
      if (after >= page.version) return after;
    }
  }

  // ---- the players' public state -------------------------------------------------------

  function renderPlayers(game) {
    const body = $("players").tBodies[0];
    // Cities & Knights has no knight cards: the column counts the knights on the board.
    const ck = game.cities_and_knights;
    const knightsOf = (seat) => {
      if (!ck) return null;
      const own = ck.seats.find((s) => s.seat === seat);
      return own ? own.knights.length : 0;
    };
    $("knights-heading").title = ck ? "Knights on the board" : "Knights played";
    const rows = game.players.flatMap((p) => {
      const left = p.pieces_left;
      const pieces = left
        ? `${left.roads} / ${left.settlements} / ${left.cities}${left.ships !== null && left.ships !== undefined ? ` / ${left.ships}` : ""}`
        : "";
      const name = [who(p.seat)];
      if (game.winner === p.seat) name.push(el("span", { class: "tag winner" }, "winner"));
      if (game.you === p.seat) name.push(el("span", { class: "tag" }, "you"));
      if (p.bot) name.push(el("span", { class: "tag" }, p.bot));
      else if (p.kind === "bot") name.push(el("span", { class: "tag" }, "bot account"));
      const rating = game.rated ? state.ratings.get(accountOf(p)) : null;
      if (rating) {
        const text = `${rating.rating.toFixed(1)} ± ${rating.deviation.toFixed(1)}`;
        name.push(el("span", { class: "tag rating", title: `${game.pool} rating (${rating.games} rated games)` }, text));
      }
      if (p.has_longest_road) name.push(el("span", { class: "tag" }, "longest road"));
      if (p.has_largest_army) name.push(el("span", { class: "tag" }, "largest army"));
      const active = game.turn && game.status === "playing" && game.turn.waiting_for.includes(p.seat);
      const row = el(
        "tr",
        { "data-seat": p.seat, class: active ? "active" : null },
        el("td", {}, ...name),
        el("td", { class: "num vp" }, p.victory_points ?? ""),
        el("td", { class: "num" }, p.resource_count ?? ""),
        el("td", { class: "num" }, p.development_card_count ?? ""),
        el("td", { class: "num" }, p.road_length ?? ""),
        el("td", { class: "num knights" }, ck ? knightsOf(p.seat) : p.knights_played ?? ""),
        el("td", { class: "num pieces" }, pieces),
      );
      // What only shows in some games, or after the end: a second, smaller line.
      const details = [];
      if (typeof p.commodity_count === "number" && !p.commodities) details.push(`${p.commodity_count} commodities`);
      const hand = game.you === p.seat && game.hand ? game.hand : null;
      if (hand) details.push(`your hand: ${cards(hand.resources)}`);
      else if (p.resources) details.push(`hand: ${cards(p.resources)}`);
      if (hand && total(hand.development_cards)) details.push(`your development cards: ${cards(hand.development_cards)}`);
      if (total(p.development_cards)) details.push(`development cards: ${cards(p.development_cards)}`);
      if (total(p.commodities)) details.push(`commodities: ${cards(p.commodities)}`);
      if (!details.length) return [row];
      row.classList.add("has-details");
      return [row, el("tr", { class: `details${active ? " active" : ""}` }, el("td", { colspan: 7 }, details.join(" · ")))];
    });
    body.replaceChildren(...rows);
  }

  // The account that holds a seat: a user's name, or a built-in bot's own account.
  function accountOf(player) {
    if (player.username) return player.username;
    return player.bot ? `builtin:${player.bot}` : null;
  }

  // A rated game shows each player's rating in its pool beside the name: read once per
  // account from its public profile (ratings change only when a rated game ends).
  async function loadRatings(game) {
    if (!game.rated) return;
    const wanted = game.players.map(accountOf).filter((name) => name && !state.ratings.has(name));
    if (!wanted.length) return;
    for (const name of wanted) state.ratings.set(name, null);
    await Promise.all(
      wanted.map(async (name) => {
        const profile = await getJson(`/api/v1/users/${encodeURIComponent(name)}`).catch(() => null);
        const rating = profile && profile.ratings.find((r) => r.pool === game.pool);
        state.ratings.set(name, rating || { rating: 25, deviation: 25 / 3, games: 0 });
      }),
    );
    if (state.game) renderPlayers(state.game);
  }

  function renderTurn(game) {
    const turn = $("turn");
    if (game.status === "open") {
      turn.textContent = `Waiting for players: ${game.players.length} of ${game.max_players} seats taken.`;
    } else if (game.status === "finished" || game.winner !== null && game.winner !== undefined) {
      turn.replaceChildren("Game over: ", who(game.winner), ` won${game.won_by ? ` (${humanize(game.won_by).toLowerCase()})` : ""}.`);
    } else if (game.turn) {
      const t = game.turn;
      const dice = t.dice ? ` · dice ${t.dice[0]} + ${t.dice[1]}` : "";
      const waiting = t.waiting_for.filter((s) => s !== t.active_seat);
      const parts = [t.number ? `Turn ${t.number}: ` : "Setup: ", who(t.active_seat), ` · ${humanize(t.phase.name).toLowerCase()}${dice}`];
      if (waiting.length) {
        parts.push(" · waiting for ");
        waiting.forEach((s, i) => parts.push(i ? ", " : "", who(s)));
      }
      turn.replaceChildren(...parts);
    }
  }

  function renderExtras(game) {
    const extras = [];
    const ck = game.cities_and_knights;
    if (ck) {
      extras.push(el("h3", {}, "Cities & Knights"));
      extras.push(el("p", { class: "barbarians" }, `Barbarians: ${ck.barbarians} of ${ck.barbarian_steps} steps · ${ck.attacks} attacks so far`));
      const rows = ck.seats.map((seat) =>
        el(
          "tr",
          { "data-seat": seat.seat },
          el("td", {}, who(seat.seat)),
          el("td", { class: "num" }, seat.improvements.join(" / ")),
          el("td", { class: "num" }, seat.knights.map((k) => `${k.rank}${k.active ? "*" : ""}`).join(" ") || "–"),
          el("td", { class: "num" }, Array.isArray(seat.walls) ? seat.walls.length : seat.walls ?? ""),
          el("td", { class: "num" }, seat.progress_card_count),
          el("td", { class: "num" }, seat.defender_points),
        ),
      );
      extras.push(
        el(
          "table",
          { class: "extras" },
          el("thead", {}, el("tr", {}, ...["Player", "Trade / politics / science", "Knights (* active)", "Walls", "Progress", "Defender"].map((h) => el("th", {}, h)))),
          el("tbody", {}, ...rows),
        ),
      );
    }
    if (game.wonders && game.wonders.length) {
      extras.push(el("h3", {}, "Wonders"));
      extras.push(
        el(
          "ul",
          { class: "wonders" },
          ...game.wonders.map((w) =>
            el("li", {}, `${w.name}: ${w.stages_built} of ${w.stages} stages`, ...(w.owner !== null && w.owner !== undefined ? [" · ", who(w.owner)] : [" · free"])),
          ),
        ),
      );
    }
    const tribe = game.forgotten_tribe;
    if (tribe) {
      const left = (kind) => tribe.gifts.filter((g) => g.gift === kind).length;
      extras.push(el("h3", {}, "The tribe's gifts"));
      extras.push(
        el(
          "ul",
          { class: "gifts" },
          el("li", {}, `On their edges: ${left("victory_point")} victory points, ${left("development_card")} development cards (${tribe.development_cards_set_aside} set aside), ${left("harbour")} harbours`),
          ...tribe.claimed.map((c) => el("li", {}, `${humanize(c.gift)} at edge ${c.edge} · `, who(c.seat))),
          ...tribe.pending_harbours.map((h) => el("li", {}, who(h.seat), ` holds a ${h.kind} harbour until a spot opens`)),
        ),
      );
    }
    const cloth = game.cloth_for_catan;
    if (cloth) {
      extras.push(el("h3", {}, "Villages and cloth"));
      extras.push(
        el(
          "ul",
          { class: "villages" },
          el("li", {}, `General supply: ${cloth.general_supply} cloth; villages with cloth: ${cloth.villages.filter((v) => v.cloth > 0).length}`),
          ...cloth.villages.map((v) => {
            const traders = [];
            v.connected.forEach((seat, i) => {
              if (i) traders.push(", ");
              traders.push(who(seat));
            });
            return el("li", {}, `Village ${v.number} at ${v.vertex}: ${v.cloth} cloth`, ...(traders.length ? [" · ", ...traders] : []));
          }),
          ...cloth.cloth.map((n, seat) => el("li", {}, who(seat), ` holds ${n} cloth (${Math.floor(n / 2)} VP)`)),
        ),
      );
    }
    const pirates = game.pirate_islands;
    if (pirates) {
      extras.push(el("h3", {}, "The pirate islands"));
      extras.push(
        el(
          "ul",
          { class: "fortresses" },
          el("li", {}, pirates.fleet_defeated ? "The fleet is defeated." : `The fleet is at ${pirates.fleet_hex} (step ${pirates.fleet_index + 1} of ${pirates.fleet_path.length}).`),
          ...pirates.seats.map((p) =>
            el("li", {}, who(p.seat), p.fortress_strength > 0 ? `: fortress at ${p.fortress}, strength ${p.fortress_strength}` : ": fortress conquered", `, ${p.warships.length} warships`),
          ),
        ),
      );
    }
    $("extras").replaceChildren(...extras);
  }

  function renderGame(game, seq) {
    $("variant").textContent = game.variant === "base" ? "" : `· ${game.variant.replace(/\+/g, " + ").replace(/_/g, " ")}`;
    const shown = seq ?? game.version;
    const status = game.status === "finished" ? "finished" : game.status;
    const live = state.following && game.status !== "finished" ? " (live)" : "";
    $("summary").textContent = `Game ${game.id} · ${status} · entry ${shown} of ${state.latest || game.version}${live}`;
    document.title = `Catan: ${game.players.map((p) => seatName(p.seat)).join(", ")}`;
    renderPlayers(game);
    renderTurn(game);
    renderExtras(game);
    document.body.dataset.shownSeq = String(shown);
  }

  // ---- the board -------------------------------------------------------------------------

  async function loadBoard(at) {
    const url = `${api}/board.svg${at === null ? "" : `?at=${at}`}`;
    const response = await fetch(url, { headers: { Accept: "image/svg+xml", ...auth }, cache });
    const text = await response.text();
    if (!response.ok) {
      let detail = response.statusText;
      try {
        detail = JSON.parse(text).detail || detail;
      } catch (_) {
        // Not a problem body: keep the status text.
      }
      throw new Error(`board: ${response.status} ${detail}`);
    }
    const doc = new DOMParser().parseFromString(text, "image/svg+xml");
    const root = doc.documentElement;
    if (!root || root.nodeName !== "svg" || doc.getElementsByTagName("parsererror").length) {
      throw new Error("board: the server's SVG could not be read");
    }
    return document.importNode(root, true);
  }

  // ---- showing a position ----------------------------------------------------------------

  // Shows entry `seq` (null: the latest). Requests never overlap: a step asked for while one
  // loads is shown once that one is done, and only the last one asked for.
  function show(seq) {
    state.target = seq;
    if (state.loading) {
      state.again = true;
      return;
    }
    load();
  }

  async function load() {
    state.loading = true;
    try {
      do {
        state.again = false;
        const at = state.target;
        const query = at === null ? "" : `?at=${at}`;
        const [game, svg] = await Promise.all([getJson(`${api}${query}`), loadBoard(at).catch((e) => e)]);
        // What arrived is drawn even when a newer position is already asked for: while bots
        // play fast, a page that only drew the newest would never draw anything.
        if (at === null) {
          state.game = game;
          loadRatings(game);
          if (game.version > state.latest) {
            state.latest = game.version;
          }
        }
        const seq = at === null ? game.version : at;
        if (game.status === "open") {
          // Before the start there is no board to draw.
          showError("");
          $("board").textContent = "The board is drawn once the game starts.";
        } else if (svg instanceof Error) {
          showError(svg.message);
        } else {
          showError("");
          svg.setAttribute("aria-hidden", "true");
          $("board").replaceChildren(svg);
          const drawn = svg.getAttribute("data-seq");
          $("board").dataset.seq = drawn || String(seq);
          // The live board and game were read one after the other: a move in between is
          // caught up with at once.
          if (at === null && drawn && Number(drawn) !== seq) state.again = true;
        }
        renderGame(game, seq);
        updateSlider(seq);
        markLog(seq);
      } while (state.again);
    } catch (error) {
      showError(String(error.message || error));
    } finally {
      state.loading = false;
    }
  }

  function updateSlider(seq) {
    const slider = $("slider");
    slider.min = String(state.first);
    slider.max = String(Math.max(state.latest, state.first));
    if (seq !== undefined) slider.value = String(seq);
    else if (state.following) slider.value = slider.max;
    const value = Number(slider.value);
    const live = state.following && !(state.game && state.game.status === "finished") ? " · live" : "";
    $("position").textContent = `${value} / ${slider.max}${live}`;
    $("first").disabled = $("back").disabled = value <= state.first;
    $("forward").disabled = $("last").disabled = value >= state.latest && state.following;
  }

  function markLog(seq) {
    for (const old of document.querySelectorAll("#log li.current")) old.classList.remove("current");
    const li = state.entries.get(seq);
    if (!li) return;
    li.classList.add("current");
    const log = $("log");
    // Keep the shown entry in view without scrolling the page itself.
    const top = li.offsetTop - log.offsetTop;
    if (top < log.scrollTop || top > log.scrollTop + log.clientHeight - li.offsetHeight) {
      log.scrollTop = top - log.clientHeight / 2;
    }
  }

  function go(seq) {
    const clamped = Math.max(state.first, Math.min(seq, state.latest));
    state.following = clamped >= state.latest;
    show(state.following ? null : clamped);
  }

  function current() {
    return Number($("slider").value);
  }

  $("first").addEventListener("click", () => go(state.first));
  $("back").addEventListener("click", () => go(current() - 1));
  $("forward").addEventListener("click", () => go(current() + 1));
  $("last").addEventListener("click", () => go(state.latest));
  $("slider").addEventListener("input", () => go(current()));
  $("log").addEventListener("click", (event) => {
    const button = event.target.closest("button.seq");
    if (button) go(Number(button.dataset.seq));
  });
  document.addEventListener("keydown", (event) => {
    if (event.target instanceof HTMLInputElement && event.target.type !== "range") return;
    if (event.key === "ArrowLeft") go(current() - 1);
    else if (event.key === "ArrowRight") go(current() + 1);
    else if (event.key === "Home") go(state.first);
    else if (event.key === "End") go(state.latest);
    else return;
    event.preventDefault();
  });

  // ---- live updates ----------------------------------------------------------------------

  function setConnection(text, live) {
    const node = $("connection");
    node.textContent = text;
    node.classList.toggle("live", !!live);
  }

  async function streamUrl() {
    const url = `${api}/stream?after=${state.latest}`;
    if (!token) return url;
    // A browser's EventSource cannot send the token: a short-lived ticket stands for it.
    const response = await fetch(`${api}/stream-tickets`, { method: "POST", headers: auth });
    if (!response.ok) throw new Error(`stream ticket: ${response.status}`);
    const { ticket } = await response.json();
    return `${url}&ticket=${encodeURIComponent(ticket)}`;
  }

  async function follow() {
    if (state.source) state.source.close();
    let url;
    try {
      url = await streamUrl();
    } catch (error) {
      setConnection(`not live: ${error.message}`);
      setTimeout(follow, 5000);
      return;
    }
    const source = new EventSource(url);
    state.source = source;
    source.addEventListener("open", () => setConnection("live", true));
    source.addEventListener("entry", (event) => {
      addEntry(JSON.parse(event.data));
      if (state.following) show(null);
      else updateSlider();
    });
    source.addEventListener("end", () => {
      source.close();
      setConnection("game over");
      if (state.following) show(null);
    });
    source.addEventListener("error", () => {
      if (source.readyState === EventSource.CLOSED && state.source === source) {
        // The browser gave up (e.g. an expired ticket): open a new stream after the last
        // entry seen.
        setConnection("reconnecting…");
        setTimeout(follow, 2000);
      } else if (source.readyState === EventSource.CONNECTING) {
        setConnection("reconnecting…");
      }
    });
  }

  async function main() {
    try {
      state.game = await getJson(api);
      state.latest = state.game.version;
      await loadLog();
      renderGame(state.game, state.game.version);
      show(null);
      if (state.game.status !== "finished") follow();
      else setConnection("game over");
    } catch (error) {
      showError(String(error.message || error));
      setConnection("not live");
    }
  }

  main();
})();
