// The smallest complete bot on the TypeScript client that @hey-api/openapi-ts generates from
// openapi/openapi.json (docs/bots.md): one seat against three heuristic bots, one long-poll and
// one POST per move, to the end of the game.
//
//   npx @hey-api/openapi-ts -i openapi/openapi.json -o client-ts   # beside this file
//   npx tsc --strict --target ES2022 --module commonjs --lib ES2022,DOM bot.ts && node bot.js http://127.0.0.1:8080
//
// Prints the requests per own move; exits 1 above 2.2.
import { createClient, createConfig } from "./client-ts/client";
import { createGame, joinGame, listMoves, registerUser, startGame, submitMove } from "./client-ts/sdk.gen";

declare const process: { argv: string[]; exit(code: number): never };

async function main(base: string): Promise<void> {
  const anonymous = createClient(createConfig({ baseUrl: base }));
  const name = `ts-bot-${Math.random().toString(36).slice(2, 10)}`;
  const user = await registerUser({ client: anonymous, body: { username: name, password: "a-bot-password" } });
  if (!user.data) throw new Error(`register: ${JSON.stringify(user.error)}`);
  const client = createClient(createConfig({ baseUrl: base, auth: user.data.token }));
  const game = await createGame({ client, body: { max_players: 4 } });
  if (!game.data) throw new Error(`create: ${JSON.stringify(game.error)}`);
  const path = { game_id: game.data.id };
  for (let i = 0; i < 3; i++) await joinGame({ client, path, body: { bot: "heuristic" } });
  await startGame({ client, path });

  let after = 0, requests = 0, ownMoves = 0;
  for (;;) {
    // Held until the game waits for this seat (or is over); brings its legal moves.
    const { data: page, error } = await listMoves({
      client, path, query: { after, wait: 30, until: "my_move", include: "legal_moves" },
    });
    requests++;
    if (!page) throw new Error(`list_moves: ${JSON.stringify(error)}`);
    if (page.entries.length > 0) after = page.entries[page.entries.length - 1].seq;
    if (page.status === "finished") break;
    const legal = page.legal_moves;
    if (!legal || legal.moves.length === 0) continue; // `wait` ran out
    const move = legal.moves[Math.floor(Math.random() * legal.moves.length)];
    const played = await submitMove({ client, path, body: move, headers: { "If-Match": `"v${legal.version}"` } });
    requests++;
    if (played.response?.status === 201) ownMoves++;
    // 412: the game moved on meanwhile; the next long-poll says how.
    else if (played.response?.status !== 412) throw new Error(`${move.type}: ${JSON.stringify(played.error)}`);
  }
  const perMove = requests / Math.max(ownMoves, 1);
  console.log(`generated TypeScript client bot: ${ownMoves} own moves in ${requests} requests, ${perMove.toFixed(2)} a move`);
  if (perMove > 2.2) throw new Error(`${perMove.toFixed(2)} requests per own move, more than 2.2`);
}

main(process.argv[2]).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
