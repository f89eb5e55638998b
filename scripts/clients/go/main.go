// Plays a complete game through the Go client openapi-generator makes from
// openapi/openapi.json (scripts/client-check), used as generated: every request goes through
// its API services, every answer is decoded into its models (which refuse a missing required
// field or one the spec does not describe). One player posts random legal moves (building
// first, as the engine's random bot weighs them) against three heuristic bots until the game
// ends, reading every page of the log as it goes (the bots' moves must decode as HiddenMove)
// and as a spectator at the end.
//
// The client is generated with useOneOfDiscriminatorLookup=true (scripts/client-check says
// why), with which a oneOf whose discriminator names no member it knows decodes to an empty
// value instead of an error: this driver fails on such a move or event itself (known), so
// that a type the client does not know cannot pass unseen.
//
// Usage: go run . <base URL>
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand"
	"net/http"
	"os"
	"strconv"
	"time"

	catan "github.com/catan/client"
)

const moveCap = 5000

// Moves that build something are taken first when listed, so that the game ends.
var building = []string{"build_city", "build_settlement", "buy_development_card", "build_road"}

func check(err error, response *http.Response, what string) {
	if err != nil {
		body := ""
		if open, ok := err.(*catan.GenericOpenAPIError); ok {
			body = string(open.Body())
		}
		status := 0
		if response != nil {
			status = response.StatusCode
		}
		fmt.Fprintf(os.Stderr, "%s: %d %v %s\n", what, status, err, body)
		os.Exit(1)
	}
}

func kind(move any) string {
	raw, err := json.Marshal(move)
	if err != nil {
		panic(err)
	}
	var fields struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(raw, &fields); err != nil {
		panic(err)
	}
	return fields.Type
}

// known fails unless a decoded oneOf holds one of its members.
func known(value interface{ GetActualInstance() interface{} }, what string) {
	if value.GetActualInstance() == nil {
		fmt.Fprintf(os.Stderr, "%s of a type the client does not know\n", what)
		os.Exit(1)
	}
}

func pick(moves []catan.Move, rng *rand.Rand) catan.Move {
	kinds := make([]string, len(moves))
	for i, move := range moves {
		known(&move, "a legal move")
		kinds[i] = kind(move)
	}
	for _, want := range building {
		for i, k := range kinds {
			if k == want && rng.Float64() < 0.7 {
				return moves[i]
			}
		}
	}
	return moves[rng.Intn(len(moves))]
}

// readLog reads every page of the log; while the game runs, other seats' moves are hidden.
func readLog(api *catan.APIClient, ctx context.Context, gameID string, seat *int32) []catan.MoveLogEntry {
	var after int64
	var entries []catan.MoveLogEntry
	for {
		page, response, err := api.MovesAPI.ListMoves(ctx, gameID).After(after).Limit(1000).Execute()
		check(err, response, "list_moves")
		if len(page.Entries) == 0 {
			return entries
		}
		for _, entry := range page.Entries {
			for i := range entry.Events {
				known(&entry.Events[i], fmt.Sprintf("event %d of entry %d", i, entry.Seq))
			}
			if page.Status != "finished" && entry.HasSeat() && seat != nil && entry.GetSeat() != *seat {
				move := entry.GetMove()
				if move.HiddenMove == nil || !move.HiddenMove.Hidden {
					fmt.Fprintf(os.Stderr, "seat %d sees another seat's move %d in full\n", *seat, entry.Seq)
					os.Exit(1)
				}
			}
		}
		entries = append(entries, page.Entries...)
		after = page.Entries[len(page.Entries)-1].Seq
	}
}

func main() {
	base := os.Args[1]
	config := catan.NewConfiguration()
	config.Servers = catan.ServerConfigurations{{URL: base}}
	api := catan.NewAPIClient(config)
	rng := rand.New(rand.NewSource(7))
	background := context.Background()

	name := "gopher-" + strconv.FormatInt(time.Now().UnixNano()%1_000_000_000, 36)
	created, response, err := api.UsersAPI.RegisterUser(background).
		Credentials(*catan.NewCredentials("generated-client", name)).Execute()
	check(err, response, "register_user")
	player := context.WithValue(background, catan.ContextAccessToken, created.Token)

	request := catan.NewCreateGameRequest()
	request.SetMaxPlayers(4)
	game, response, err := api.GamesAPI.CreateGame(player).CreateGameRequest(*request).Execute()
	check(err, response, "create_game")
	gameID := game.Id
	for i := 0; i < 3; i++ {
		bot := catan.NewJoinRequest()
		bot.SetBot("heuristic")
		_, response, err = api.GamesAPI.JoinGame(player, gameID).JoinRequest(*bot).Execute()
		check(err, response, "join_game")
	}
	_, response, err = api.GamesAPI.StartGame(player, gameID).Execute()
	check(err, response, "start_game")

	var seat int32
	moves := 0
	var view *catan.GameResponse
	for {
		view, response, err = api.GamesAPI.GetGame(player, gameID).Execute()
		check(err, response, "get_game")
		if view.Status == "finished" {
			break
		}
		if moves >= moveCap {
			fmt.Fprintf(os.Stderr, "no winner after %d moves\n", moveCap)
			os.Exit(1)
		}
		ours := false
		for _, waiting := range view.GetTurn().WaitingFor {
			ours = ours || waiting == seat
		}
		if !ours {
			// The bots' turn: wait for their next move.
			_, response, err = api.MovesAPI.ListMoves(player, gameID).After(view.Version).Wait(2).Limit(1).Execute()
			check(err, response, "list_moves")
			continue
		}
		legal, response, err := api.MovesAPI.LegalMoves(player, gameID).Execute()
		check(err, response, "legal_moves")
		move := pick(legal.Moves, rng)
		_, response, err = api.MovesAPI.SubmitMove(player, gameID).Move(move).Execute()
		if response != nil && response.StatusCode == http.StatusTooManyRequests {
			// Over the move limit: wait as the server says, then read the game again.
			wait, _ := strconv.ParseFloat(response.Header.Get("Retry-After"), 64)
			time.Sleep(time.Duration(wait*1000+100) * time.Millisecond)
			continue
		}
		check(err, response, "submit_move "+kind(move))
		moves++
		if moves%100 == 0 {
			readLog(api, player, gameID, &seat)
		}
	}
	log := readLog(api, background, gameID, nil)
	if last := log[len(log)-1].Seq; last != view.Version {
		fmt.Fprintf(os.Stderr, "the log ends at %d, the game is at %d\n", last, view.Version)
		os.Exit(1)
	}
	fmt.Printf("generated Go client (openapi-generator go): a game of %d log entries, %d moves posted, winner seat %d\n",
		len(log), moves, view.GetWinner())
}
