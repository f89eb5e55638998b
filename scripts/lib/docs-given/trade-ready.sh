# Sourced by scripts/docs-check before the trades block of docs/lobby-and-trades.md: plays the
# API tour's game ($API, $GAME, tokens $A and $B of seats 0 and 1) on until its active seat has
# rolled and holds a wool, and the other seat holds two ore (one for the accepted offer, one
# for the counter-offer), seat 0 being the active one (the block confirms with seat 1). Sets
# $T to the active seat's token and $O to the other's. Every move
# is a legal move of the server's own list: dice, placements, discards and the robber as the
# list gives them, bank trades for what a seat lacks, and no building, so the hands fill up.
__token_of() { [ "$1" = 0 ] && echo "$A" || echo "$B"; }
__play() { # $1: token, $2: move; waits out a rate limit
    local answer
    for _ in $(seq 5); do
        answer=$(command curl -s "$API/games/$GAME/moves" -H "authorization: Bearer $1" \
            -H 'content-type: application/json' -d "$2")
        [ "$(jq -r '.status // empty' <<<"$answer")" = 429 ] || return 0
        sleep 1
    done
    echo "docs-given: the move $2 was refused: $answer" >&2
    return 1
}
__ready= __steps=0
for _ in $(seq 1500); do
    __steps=$((__steps + 1))
    seat=$(command curl -s "$API/games/$GAME" | jq '.turn.waiting_for[0]')
    token=$(__token_of "$seat")
    moves=$(command curl -s "$API/games/$GAME/legal-moves" -H "authorization: Bearer $token" | jq -c '.moves')
    if jq -e 'any(.[]; .type == "roll_dice")' <<<"$moves" >/dev/null; then
        __play "$token" '{"type":"roll_dice"}'
    elif jq -e 'any(.[]; .type == "end_turn")' <<<"$moves" >/dev/null; then
        other=$(__token_of "$((1 - seat))")
        wool=$(command curl -s "$API/games/$GAME" -H "authorization: Bearer $token" | jq '.hand.resources.wool // 0')
        ore=$(command curl -s "$API/games/$GAME" -H "authorization: Bearer $other" | jq '.hand.resources.ore // 0')
        if [ "$seat" = 0 ] && [ "$wool" -ge 1 ] && [ "$ore" -ge 2 ]; then
            T=$token O=$other __ready=1
            break
        fi
        # What this seat still lacks, bought from the bank when its hand allows (4:1 or a
        # harbour's rate), so that the wait does not hang on the dice.
        need=$([ "$seat" = 0 ] && echo wool || echo ore)
        trade=$(jq -c --arg need "$need" 'first(.[] | select(.type == "trade_with_bank" and (.get[$need] // 0) > 0)) // empty' <<<"$moves")
        if [ -n "$trade" ]; then
            __play "$token" "$trade"
        else
            __play "$token" '{"type":"end_turn"}'
        fi
    else
        __play "$token" "$(jq -c '.[0]' <<<"$moves")"
    fi
done
[ -n "$__ready" ] || { echo "docs-given: the tour's game never reached a trade" >&2; return 1; }
echo "docs-given: trade-ready after $__steps steps" >&2
