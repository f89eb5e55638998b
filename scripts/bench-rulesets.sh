#!/usr/bin/env bash
# Side by side, alternating: the engine's simulator (random bots, 4 players) on the base game,
# Seafarers (New Shores, The New World, The Forgotten Tribe, Cloth for Catan, The Pirate Islands) and Cities & Knights, in CPU seconds. Prints, per ruleset, the median
# moves per CPU second and the median cost of a move relative to the base game's in the same
# round (the issue 28 targets: Seafarers at most 3x, Cities & Knights at most 2x).
#
#   cargo build --release -p catan-engine --example simulate
#   N=1000 R=5 scripts/bench-rulesets.sh
#
# N is the number of base games per run; the expansions, whose games are longer, play N/4.
# SIM picks another simulator binary (e.g. a copy of an older build).
set -u
N=${N:-1000}; R=${R:-5}
sim=${SIM:-target/release/examples/simulate}
[ -x "$sim" ] || { echo "no simulator at $sim (build it first)"; exit 1; }
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
names=(base seafarers new_world forgotten_tribe cloth_for_catan pirate_islands cities_knights)
args=("" "--variant seafarers --scenario new_shores" "--variant seafarers --scenario new_world"
  "--variant seafarers --scenario forgotten_tribe" "--variant seafarers --scenario cloth_for_catan"
  "--variant seafarers --scenario pirate_islands" "--variant cities_and_knights")
games=("$N" $((N / 4)) $((N / 4)) $((N / 4)) $((N / 4)) $((N / 4)) $((N / 4)))
for round in $(seq 1 "$R"); do
  seed=$((100 + round))
  for i in "${!names[@]}"; do
    # shellcheck disable=SC2086 # the flags are meant to split
    /usr/bin/time -f "%U %S" -o "$out/time" "$sim" --games "${games[$i]}" --players 4 --seed $seed ${args[$i]} \
      >"$out/run.json" || { echo "simulator failed: ${names[$i]}"; exit 1; }
    python3 - "$out" "${names[$i]}" "${games[$i]}" "$round" >>"$out/rows" <<'PY'
import json, sys
d, name, games, rnd = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
cpu = sum(map(float, open(d + "/time").read().split()))
run = json.loads(open(d + "/run.json").read().strip().splitlines()[-1])
print(rnd, name, games / cpu, games * run["moves_mean"] / cpu)
PY
  done
done
python3 - "$out/rows" <<'PY'
import sys, statistics as st
rows = [l.split() for l in open(sys.argv[1])]
per_round = {}
for rnd, name, games_s, moves_s in rows:
    per_round.setdefault(rnd, {})[name] = (float(games_s), float(moves_s))
for name in ("base", "seafarers", "new_world", "forgotten_tribe", "cloth_for_catan", "pirate_islands", "cities_knights"):
    games_s = st.median(r[name][0] for r in per_round.values())
    moves_s = st.median(r[name][1] for r in per_round.values())
    cost = st.median(r["base"][1] / r[name][1] for r in per_round.values())
    print(f"{name:15} {games_s:8.1f} games/cpu-s {moves_s / 1e6:6.3f}M moves/cpu-s  per-move cost vs base {cost:.2f}")
PY
