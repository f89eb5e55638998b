// The game of game.ts through openapi-generator's typescript-fetch client (ts-fetch/, beside
// this file once scripts/client-check has generated it): its APIs parse every answer into its
// models (`...FromJSON`). Usage: node ts_fetch.js <base URL>
import { Configuration, GamesApi, MovesApi, ResponseError, UsersApi } from "./ts-fetch";
import type { Move } from "./ts-fetch";
import { play, run, uniqueName, type Page, type Seat, type View } from "./game";

declare const process: { argv: string[] };
const base = process.argv[2];

function seat(configuration: Configuration): Seat<Move> {
  const games = new GamesApi(configuration);
  const moves = new MovesApi(configuration);
  return {
    async createGame() {
      return (await games.createGame({ createGameRequest: { maxPlayers: 4 } })).id;
    },
    async addBot(gameId) {
      await games.joinGame({ gameId, joinRequest: { bot: "heuristic" } });
    },
    async start(gameId) {
      await games.startGame({ gameId });
    },
    async game(gameId): Promise<View> {
      const game = await games.getGame({ gameId });
      return { status: game.status, version: game.version, winner: game.winner ?? null, waitingFor: game.turn?.waitingFor ?? [] };
    },
    async legal(gameId) {
      return (await moves.legalMoves({ gameId })).moves;
    },
    kind: (move) => move.type,
    async submit(gameId, move) {
      try {
        await moves.submitMove({ gameId, move });
        return null;
      } catch (error) {
        if (error instanceof ResponseError && error.response.status === 429) {
          return Number(error.response.headers.get("retry-after") ?? "1");
        }
        if (error instanceof ResponseError) {
          throw new Error(`submit_move ${move.type}: ${error.response.status} ${await error.response.text()}`);
        }
        throw error;
      }
    },
    async log(gameId, after, limit, wait): Promise<Page> {
      const page = await moves.listMoves({ gameId, after, limit, wait });
      return {
        status: page.status,
        version: page.version,
        entries: page.entries.map((e) => ({ seq: e.seq, seat: e.seat ?? null, move: e.move ?? null })),
      };
    },
  };
}

run(async () => {
  const name = uniqueName("fetch");
  const created = await new UsersApi(new Configuration({ basePath: base })).registerUser({
    credentials: { username: name, password: "generated-client" },
  });
  await play("openapi-generator typescript-fetch", seat(new Configuration({ basePath: base, accessToken: created.token })),
    seat(new Configuration({ basePath: base })));
});
