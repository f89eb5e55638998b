// The game of game.ts through openapi-generator's typescript-axios client (ts-axios/, beside
// this file once scripts/client-check has generated it, with axios installed beside it).
// Usage: node ts_axios.js <base URL>
import { isAxiosError } from "axios";
import { Configuration, GamesApi, MovesApi, UsersApi } from "./ts-axios";
import type { Move } from "./ts-axios";
import { play, run, uniqueName, type Page, type Seat, type View } from "./game";

declare const process: { argv: string[] };
const base = process.argv[2];

function seat(configuration: Configuration): Seat<Move> {
  const games = new GamesApi(configuration);
  const moves = new MovesApi(configuration);
  return {
    async createGame() {
      return (await games.createGame({ max_players: 4 })).data.id;
    },
    async addBot(gameId) {
      await games.joinGame(gameId, undefined, { bot: "heuristic" });
    },
    async start(gameId) {
      await games.startGame(gameId);
    },
    async game(gameId): Promise<View> {
      const game = (await games.getGame(gameId)).data;
      return { status: game.status, version: game.version, winner: game.winner ?? null, waitingFor: game.turn?.waiting_for ?? [] };
    },
    async legal(gameId) {
      return (await moves.legalMoves(gameId)).data.moves;
    },
    kind: (move) => move.type,
    async submit(gameId, move) {
      try {
        await moves.submitMove(gameId, move);
        return null;
      } catch (error) {
        if (isAxiosError(error) && error.response?.status === 429) {
          return Number(error.response.headers["retry-after"] ?? "1");
        }
        if (isAxiosError(error)) {
          throw new Error(`submit_move ${move.type}: ${error.response?.status} ${JSON.stringify(error.response?.data)}`);
        }
        throw error;
      }
    },
    async log(gameId, after, limit, wait): Promise<Page> {
      const page = (await moves.listMoves(gameId, after, wait, limit)).data;
      return {
        status: page.status,
        version: page.version,
        entries: page.entries.map((e) => ({ seq: e.seq, seat: e.seat ?? null, move: e.move ?? null })),
      };
    },
  };
}

run(async () => {
  const name = uniqueName("axios");
  const created = (await new UsersApi(new Configuration({ basePath: base })).registerUser({
    username: name,
    password: "generated-client",
  })).data;
  await play("openapi-generator typescript-axios", seat(new Configuration({ basePath: base, accessToken: created.token })),
    seat(new Configuration({ basePath: base })));
});
