// A complete game played through one generated TypeScript client (scripts/client-check):
// each of hey_api.ts, ts_fetch.ts and ts_axios.ts wraps its client's generated functions in a
// `Seat`, and this plays the game the same way for all three. One player posts random legal
// moves (building first, as the engine's random bot weighs them) against three heuristic bots
// until the game ends; every page of the log is read as the player while the game runs (the
// bots' moves must come as hidden moves) and as a spectator at the end.

/** What the game loop reads of a game resource. */
export interface View {
  status: string;
  version: number;
  winner: number | null;
  waitingFor: number[];
}

/** What it reads of a log entry and a log page. */
export interface Entry {
  seq: number;
  seat: number | null;
  move: object | null;
}
export interface Page {
  status: string;
  version: number;
  entries: Entry[];
}

/** The calls a player makes, through the generated client (`M` is its move type). */
export interface Seat<M> {
  createGame(): Promise<string>;
  addBot(gameId: string): Promise<void>;
  start(gameId: string): Promise<void>;
  game(gameId: string): Promise<View>;
  legal(gameId: string): Promise<M[]>;
  kind(move: M): string;
  /** Posts a move: null when played, or the seconds to wait when over the move limit. */
  submit(gameId: string, move: M): Promise<number | null>;
  log(gameId: string, after: number, limit: number, wait?: number): Promise<Page>;
}

// Node's, without its type package.
declare const process: { exit(code: number): never };

const MOVE_CAP = 5000;
const BUILDING = ["build_city", "build_settlement", "buy_development_card", "build_road"];

/** A small seeded generator (mulberry32), so that a failing game can be replayed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function hidden(move: object | null): boolean {
  return move !== null && "hidden" in move && (move as { hidden: unknown }).hidden === true;
}

async function readLog<M>(reader: Pick<Seat<M>, "log">, gameId: string, seat: number | null): Promise<Entry[]> {
  let after = 0;
  const entries: Entry[] = [];
  for (;;) {
    const page = await reader.log(gameId, after, 1000);
    if (page.entries.length === 0) return entries;
    for (const entry of page.entries) {
      if (page.status !== "finished" && entry.seat !== null && entry.seat !== seat && !hidden(entry.move)) {
        throw new Error(`seat ${seat} sees entry ${entry.seq} in full: ${JSON.stringify(entry.move)}`);
      }
    }
    entries.push(...page.entries);
    after = page.entries[page.entries.length - 1].seq;
  }
}

export async function play<M>(label: string, player: Seat<M>, spectator: Pick<Seat<M>, "log">): Promise<void> {
  const rng = random(7);
  const gameId = await player.createGame();
  for (let i = 0; i < 3; i++) await player.addBot(gameId);
  await player.start(gameId);
  const seat = 0;
  let moves = 0;
  let view: View;
  for (;;) {
    view = await player.game(gameId);
    if (view.status === "finished") break;
    if (moves >= MOVE_CAP) throw new Error(`no winner after ${MOVE_CAP} moves`);
    if (!view.waitingFor.includes(seat)) {
      // The bots' turn: wait for their next move.
      await player.log(gameId, view.version, 1, 2);
      continue;
    }
    const legal = await player.legal(gameId);
    const kinds = legal.map((m) => player.kind(m));
    let move = legal[Math.floor(rng() * legal.length)];
    for (const kind of BUILDING) {
      if (kinds.includes(kind) && rng() < 0.7) {
        move = legal[kinds.indexOf(kind)];
        break;
      }
    }
    const wait = await player.submit(gameId, move);
    if (wait !== null) {
      // Over the move limit: wait as the server says, then read the game again.
      await new Promise((resolve) => setTimeout(resolve, wait * 1000 + 100));
      continue;
    }
    moves++;
    if (moves % 100 === 0) await readLog(player, gameId, seat);
  }
  const log = await readLog(spectator, gameId, null);
  if (log[log.length - 1].seq !== view.version) {
    throw new Error(`the log ends at ${log[log.length - 1].seq}, the game is at ${view.version}`);
  }
  console.log(`generated TypeScript client (${label}): a game of ${log.length} log entries, ${moves} moves posted, winner seat ${view.winner}`);
}

/** Runs `main`, failing the process on any error. */
export function run(main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}

/** A user name nobody has taken yet. */
export function uniqueName(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
}
