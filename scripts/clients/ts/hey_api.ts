// The game of game.ts through the client @hey-api/openapi-ts generates (client-ts/, beside
// this file once scripts/client-check has generated it). Usage: node hey_api.js <base URL>
import { createClient, createConfig } from "./client-ts/client";
import type { Client } from "./client-ts/client";
import {
  createGame,
  getGame,
  joinGame,
  legalMoves,
  listMoves,
  registerUser,
  startGame,
  submitMove,
} from "./client-ts/sdk.gen";
import type { Move } from "./client-ts/types.gen";
import { play, run, uniqueName, type Page, type Seat, type View } from "./game";

declare const process: { argv: string[] };
const base = process.argv[2];

function fail(what: string, response: Response | undefined, error: unknown): never {
  throw new Error(`${what}: ${response?.status} ${JSON.stringify(error)}`);
}

function seat(client: Client): Seat<Move> {
  return {
    async createGame() {
      const { data, error, response } = await createGame({ client, body: { max_players: 4 } });
      return data ? data.id : fail("create_game", response, error);
    },
    async addBot(gameId) {
      const { data, error, response } = await joinGame({ client, path: { game_id: gameId }, body: { bot: "heuristic" } });
      if (!data) fail("join_game", response, error);
    },
    async start(gameId) {
      const { data, error, response } = await startGame({ client, path: { game_id: gameId } });
      if (!data) fail("start_game", response, error);
    },
    async game(gameId): Promise<View> {
      const { data, error, response } = await getGame({ client, path: { game_id: gameId } });
      if (!data) fail("get_game", response, error);
      return { status: data.status, version: data.version, winner: data.winner ?? null, waitingFor: data.turn?.waiting_for ?? [] };
    },
    async legal(gameId) {
      const { data, error, response } = await legalMoves({ client, path: { game_id: gameId } });
      return data ? data.moves : fail("legal_moves", response, error);
    },
    kind: (move) => move.type,
    async submit(gameId, move) {
      const { data, error, response } = await submitMove({ client, path: { game_id: gameId }, body: move });
      if (response?.status === 429) return Number(response.headers.get("retry-after") ?? "1");
      if (!data) fail(`submit_move ${move.type}`, response, error);
      return null;
    },
    async log(gameId, after, limit, wait): Promise<Page> {
      const { data, error, response } = await listMoves({ client, path: { game_id: gameId }, query: { after, limit, wait } });
      if (!data) fail("list_moves", response, error);
      return {
        status: data.status,
        version: data.version,
        entries: data.entries.map((e) => ({ seq: e.seq, seat: e.seat ?? null, move: e.move ?? null })),
      };
    },
  };
}

run(async () => {
  const anonymous = createClient(createConfig({ baseUrl: base }));
  const name = uniqueName("hey");
  const { data, error, response } = await registerUser({ client: anonymous, body: { username: name, password: "generated-client" } });
  if (!data) fail("register_user", response, error);
  const player = createClient(createConfig({ baseUrl: base, auth: data.token }));
  await play("@hey-api/openapi-ts", seat(player), seat(anonymous));
});
