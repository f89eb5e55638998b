//! `catan-server [serve|migrate|verify|openapi] [--bind ADDR] [--data-dir DIR]`, and
//! `catan-server ladder [--games N] [--seed S] [--pools NAME,...] [--players N] [--bots KIND,...]
//! [--server URL --account NAME=TOKEN ... [--host-token TOKEN] [--parallel N] [--turn-timer S]
//! [--patience S]]`

use std::{
    process::ExitCode,
    time::{Duration, Instant},
};

use catan_engine::bots::BotKind;
use catan_server::{
    api,
    config::Config,
    rated::{
        ladder::{
            self,
            remote::{Server, ServerOptions},
            Entrant, InProcess, Ladder, Venue,
        },
        Pool, MODEL,
    },
    startup::{open_database, Application},
    telemetry,
};

/// mimalloc rather than glibc's malloc: password hashing allocates 19 MiB per run, which glibc
/// kept in its arenas (RSS grew by 19 MiB per login up to ~450 MiB, and stayed there);
/// mimalloc gives it back (measured by `scripts/bench-flood.sh`).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const USAGE: &str = "\
catan-server: a Catan game server over HTTP

USAGE:
    catan-server [serve] [--bind ADDR] [--data-dir DIR]   run the server (default)
    catan-server migrate [--data-dir DIR]                 apply database migrations and exit
    catan-server verify [--data-dir DIR]                  check every stored game: its log's seqs run
                                                          1..version and its snapshot is the log's
                                                          replay (exit 1 naming each game that is not)
    catan-server openapi                                  print the OpenAPI document
    catan-server ladder [--games N] [--seed S] [--pools NAME,...] [--players N] [--bots KIND,...]
                        [--server URL --account NAME=TOKEN ...]
                                                          play the built-in bots (and, on a server,
                                                          accounts' programs) against each other in
                                                          seeded games per rating pool and print win
                                                          rates and ratings as Markdown (docs/ladder.md)

OPTIONS:
    --bind ADDR       listen address (env CATAN_BIND, default 127.0.0.1:8080)
    --data-dir DIR    SQLite file and generated JWT secret (env CATAN_DATA_DIR, default ./data)

LADDER OPTIONS:
    --games N         games per pool (default 1000)
    --seed S          master seed, 0 to 2^64-1 (default 1): the same seed gives the same tables
    --pools NAME,...  base, five_six, seafarers, wonders, cities_and_knights (default: all, or
                      those that seat --players)
    --players N       seats per game (default per pool: the most it seats: 4, or 6 for five_six)
    --bots KIND,...   the built-in bots that enter: heuristic, random, or none (default both)
    --server URL      play the games on this server (plain http://) instead of in this process
    --account NAME=TOKEN
                      (with --server, repeatable) an account that enters: its program plays the
                      games it is seated in over the API; TOKEN is the account's (POST /tokens)
    --host-token TOKEN
                      (with --server) the account that creates the games without playing in
                      them (default: one registered for the run)
    --parallel N      (with --server) games at once (default 1)
    --turn-timer S    (with --server) each game's turn timer: a seat that does not move in time
                      is played by the timer, and if it ends the game so, it finishes last
                      (default 30)
    --patience S      (with --server) seconds before a game still going is counted unfinished
                      (default 1800)

ENVIRONMENT:
    DATABASE_URL      postgres://... to use PostgreSQL (default: SQLite in the data directory)
    DATABASE_READ_URL postgres://... of read replicas, for reads that can be served there
                      (docs/cluster.md)
    JWT_SECRET        token signing secret (default: generated once into the data directory)
    RUST_LOG          log filter (default info)
";

enum Command {
    Serve,
    Migrate,
    Verify,
    OpenApi,
    Ladder(LadderArgs),
}

/// `catan-server ladder`'s options, as given (`None`: the default).
struct LadderArgs {
    games: u32,
    seed: u64,
    pools: Option<Vec<Pool>>,
    players: Option<u8>,
    bots: Vec<BotKind>,
    server: Option<String>,
    /// Each `--account`'s name and token.
    accounts: Vec<(String, String)>,
    host_token: Option<String>,
    parallel: Option<usize>,
    turn_timer: Option<u32>,
    patience: Option<u64>,
}

/// Games per pool by default: about 10 s for all five pools in release on two cores.
const LADDER_GAMES: u32 = 1_000;
/// The master seed by default, so that a bare `catan-server ladder` gives today's table.
const LADDER_SEED: u64 = 1;
/// A server ladder's turn timer by default: long enough for a program over a slow network,
/// short enough that a program that stopped answering does not stall the run for long.
const LADDER_TURN_TIMER_SECONDS: u32 = 30;
/// How long a server ladder waits for one game by default.
const LADDER_PATIENCE_SECONDS: u64 = 1800;

fn parse_args(config: &mut Config) -> Result<Command, String> {
    let mut command = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        match arg.as_str() {
            "serve" | "migrate" | "verify" | "openapi" if command.is_none() => {
                command = Some(match arg.as_str() {
                    "serve" => Command::Serve,
                    "migrate" => Command::Migrate,
                    "verify" => Command::Verify,
                    _ => Command::OpenApi,
                });
            }
            "ladder" if command.is_none() => return parse_ladder_args(args).map(Command::Ladder),
            "--bind" => config.bind = value("--bind")?,
            "--data-dir" => config.data_dir = value("--data-dir")?.into(),
            _ if arg.starts_with("--bind=") => config.bind = arg["--bind=".len()..].into(),
            _ if arg.starts_with("--data-dir=") => {
                config.data_dir = arg["--data-dir=".len()..].into();
            }
            "-h" | "--help" | "help" => return Err(String::new()),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    Ok(command.unwrap_or(Command::Serve))
}

/// The options after `ladder`, each as `--name value` or `--name=value`.
fn parse_ladder_args(mut args: impl Iterator<Item = String>) -> Result<LadderArgs, String> {
    fn number<T: std::str::FromStr>(name: &str, value: &str) -> Result<T, String> {
        value.parse().map_err(|_| format!("{name} needs a whole number in range, not {value:?}"))
    }
    fn positive<T: std::str::FromStr + PartialOrd + Default>(name: &str, value: &str) -> Result<T, String> {
        number(name, value)
            .and_then(|n: T| if n > T::default() { Ok(n) } else { Err(format!("{name} must be at least 1")) })
    }
    let mut ladder = LadderArgs {
        games: LADDER_GAMES,
        seed: LADDER_SEED,
        pools: None,
        players: None,
        bots: BotKind::ALL.to_vec(),
        server: None,
        accounts: Vec::new(),
        host_token: None,
        parallel: None,
        turn_timer: None,
        patience: None,
    };
    const NAMES: [&str; 11] = [
        "--games",
        "--seed",
        "--pools",
        "--players",
        "--bots",
        "--server",
        "--account",
        "--host-token",
        "--parallel",
        "--turn-timer",
        "--patience",
    ];
    while let Some(arg) = args.next() {
        if matches!(arg.as_str(), "-h" | "--help" | "help") {
            return Err(String::new());
        }
        let (name, inline) = match arg.split_once('=') {
            Some((name, value)) if name.starts_with("--") => (name.to_owned(), Some(value.to_owned())),
            _ => (arg, None),
        };
        if !NAMES.contains(&name.as_str()) {
            return Err(format!("unknown ladder argument {name:?}"));
        }
        let value = inline.or_else(|| args.next()).ok_or(format!("{name} needs a value"))?;
        match name.as_str() {
            "--games" => ladder.games = number(&name, &value)?,
            "--seed" => ladder.seed = number(&name, &value)?,
            "--players" => ladder.players = Some(number(&name, &value)?),
            "--server" => ladder.server = Some(value),
            "--host-token" => ladder.host_token = Some(value),
            "--parallel" => ladder.parallel = Some(positive(&name, &value)?),
            "--turn-timer" => ladder.turn_timer = Some(number(&name, &value)?),
            "--patience" => ladder.patience = Some(positive(&name, &value)?),
            "--account" => {
                let (account, token) = value
                    .split_once('=')
                    .filter(|(account, token)| !account.is_empty() && !token.is_empty())
                    .ok_or_else(|| format!("--account needs NAME=TOKEN, not {value:?}"))?;
                ladder.accounts.push((account.to_owned(), token.to_owned()));
            }
            "--bots" if value == "none" => ladder.bots.clear(),
            "--bots" => {
                ladder.bots = value
                    .split(',')
                    .map(|kind| kind.trim().parse::<BotKind>().map_err(|e| format!("--bots: {e}")))
                    .collect::<Result<Vec<BotKind>, String>>()?;
            }
            _ => {
                let pools = value
                    .split(',')
                    .map(|pool| {
                        Pool::parse(pool.trim()).ok_or_else(|| {
                            let names: Vec<&str> = Pool::ALL.iter().map(|pool| pool.name()).collect();
                            format!("unknown pool {pool:?} (pools: {})", names.join(", "))
                        })
                    })
                    .collect::<Result<Vec<Pool>, String>>()?;
                ladder.pools = Some(pools);
            }
        }
    }
    let server_only = [
        ("--account", !ladder.accounts.is_empty()),
        ("--host-token", ladder.host_token.is_some()),
        ("--parallel", ladder.parallel.is_some()),
        ("--turn-timer", ladder.turn_timer.is_some()),
        ("--patience", ladder.patience.is_some()),
    ];
    if ladder.server.is_none() {
        if let Some((name, _)) = server_only.iter().find(|(_, given)| *given) {
            return Err(format!("{name} needs --server: without one the games are played in this process"));
        }
    }
    if let Some(seconds) = ladder.turn_timer {
        if !catan_server::play::turn_timer::TIMER_SECONDS.contains(&seconds) {
            let range = catan_server::play::turn_timer::TIMER_SECONDS;
            return Err(format!("--turn-timer must be {} to {} seconds, not {seconds}", range.start(), range.end()));
        }
    }
    Ok(ladder)
}

fn main() -> ExitCode {
    let mut config = Config::from_env();
    let command = match parse_args(&mut config) {
        Ok(command) => command,
        Err(message) => {
            if !message.is_empty() {
                eprintln!("error: {message}\n");
            }
            eprint!("{USAGE}");
            return if message.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(2) };
        }
    };
    match command {
        Command::Ladder(args) => run_ladder(&args),
        Command::OpenApi => {
            print!("{}", api::openapi_json());
            ExitCode::SUCCESS
        }
        Command::Migrate => {
            telemetry::init();
            match open_database(&config) {
                Ok(_) => ExitCode::SUCCESS,
                Err(e) => {
                    tracing::error!(error = %e, "migration failed");
                    ExitCode::FAILURE
                }
            }
        }
        Command::Verify => {
            telemetry::init();
            verify(&config)
        }
        Command::Serve => {
            telemetry::init();
            let app = match Application::build(&config) {
                Ok(app) => app,
                Err(e) => {
                    tracing::error!(error = %e, "cannot start");
                    return ExitCode::FAILURE;
                }
            };
            tracing::info!(
                "listening on http://{}:{} (Swagger UI at /swagger-ui/)",
                config.bind.rsplit_once(':').map_or("127.0.0.1", |(host, _)| host),
                app.port()
            );
            match actix_web::rt::System::new().block_on(app.run_until_stopped()) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    tracing::error!(error = %e, "server failed");
                    ExitCode::FAILURE
                }
            }
        }
    }
}

/// `catan-server verify`: every stored game checked against its log, the faults printed one
/// per line (`<game id>: <what is wrong>`) and the totals last.
fn verify(config: &Config) -> ExitCode {
    let checked = open_database(config).map_err(|e| e.to_string()).and_then(|pool| {
        let mut conn = pool.get().map_err(|e| e.to_string())?;
        let progress = |done, of| tracing::info!(done, of, "games checked");
        catan_server::store::check_every_game(&mut conn, progress).map_err(|e| match e {
            catan_server::error::ApiError::Internal(detail) => detail,
            other => other.to_string(),
        })
    });
    match checked {
        Ok(check) => {
            for (game, fault) in &check.faults {
                println!("{game}: {fault}");
            }
            println!("verify: {} games, {} log entries, {} faulty", check.games, check.entries, check.faults.len());
            if check.faults.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        Err(error) => {
            tracing::error!(%error, "verify could not read the database");
            ExitCode::from(2)
        }
    }
}

/// `catan-server ladder`: the tables on stdout as Markdown, progress on stderr.
fn run_ladder(args: &LadderArgs) -> ExitCode {
    let pools: Vec<(Pool, u8)> = match (&args.pools, args.players) {
        (Some(pools), players) => {
            pools.iter().map(|&pool| (pool, players.unwrap_or_else(|| ladder::default_players(pool)))).collect()
        }
        // Without a pool named, `--players` picks the pools that seat that many.
        (None, Some(players)) => {
            Pool::ALL.into_iter().filter(|pool| pool.players().contains(&players)).map(|pool| (pool, players)).collect()
        }
        (None, None) => Pool::ALL.into_iter().map(|pool| (pool, ladder::default_players(pool))).collect(),
    };
    if pools.is_empty() {
        eprintln!("error: no pool seats {} players\n", args.players.unwrap_or_default());
        return ExitCode::from(2);
    }
    let mut entrants: Vec<Entrant> = args.bots.iter().map(|&kind| Entrant::Builtin(kind)).collect();
    entrants.extend(args.accounts.iter().map(|(name, _)| Entrant::Account(name.clone())));
    let ladder = match Ladder::new(args.seed, args.games, pools, entrants) {
        Ok(ladder) => ladder,
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::from(2);
        }
    };
    for &(pool, players) in ladder.pools() {
        let group = ladder.group_size(players);
        if !(ladder.games() as usize).is_multiple_of(group) {
            // Lineups are dealt in groups (docs/ladder.md): a partial group leaves some entrant
            // with more seats or some seat to fewer entrants, which the table's seat counts show.
            eprintln!("ladder: note: {pool}: {} games is not a multiple of a group of {group}", ladder.games());
        }
    }
    let (venue, threads, at): (Box<dyn Venue>, usize, String) = match &args.server {
        None => (Box::new(InProcess), std::thread::available_parallelism().map_or(1, usize::from), String::new()),
        Some(url) => {
            let options = ServerOptions {
                url: url.clone(),
                host_token: args.host_token.clone(),
                accounts: args.accounts.clone(),
                turn_timer_seconds: args.turn_timer.unwrap_or(LADDER_TURN_TIMER_SECONDS),
                patience: Duration::from_secs(args.patience.unwrap_or(LADDER_PATIENCE_SECONDS)),
            };
            match Server::connect(options) {
                Ok((server, host)) => {
                    eprintln!("ladder: playing on {url}, hosted by {host}");
                    (Box::new(server), args.parallel.unwrap_or(1), format!(" on the server {url}"))
                }
                Err(message) => {
                    eprintln!("error: {message}");
                    return ExitCode::FAILURE;
                }
            }
        }
    };
    let started = Instant::now();
    let mut pool_started = started;
    let mut last_line = started;
    let mut progress = |pool: Pool, done: u32, of: u32| {
        let now = Instant::now();
        if done == 1 {
            pool_started = now;
        }
        // A line per pool, and one every few seconds for long runs.
        if done == of || now.duration_since(last_line) >= Duration::from_secs(5) {
            last_line = now;
            let seconds = now.duration_since(pool_started).as_secs_f64();
            eprintln!("ladder: {pool}: {done}/{of} games in {seconds:.1} s");
        }
    };
    let tables = match ladder.run_at(venue.as_ref(), threads, &mut progress) {
        Ok(tables) => tables,
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::FAILURE;
        }
    };
    let mut command = format!("catan-server ladder --games {} --seed {}", ladder.games(), ladder.seed());
    let names: Vec<&str> = ladder.pools().iter().map(|(pool, _)| pool.name()).collect();
    command.push_str(&format!(" --pools {}", names.join(",")));
    if let Some(players) = args.players {
        command.push_str(&format!(" --players {players}"));
    }
    if args.bots != BotKind::ALL {
        let bots: Vec<&str> = args.bots.iter().map(|kind| kind.name()).collect();
        command.push_str(&format!(" --bots {}", if bots.is_empty() { "none".into() } else { bots.join(",") }));
    }
    if let Some(url) = &args.server {
        command.push_str(&format!(" --server {url}"));
        for (name, _) in &args.accounts {
            command.push_str(&format!(" --account {name}=<token>"));
        }
    }
    let entrants: Vec<String> = ladder.entrants().iter().map(ToString::to_string).collect();
    println!("## Bot ladder\n");
    println!(
        "Entrants {}; {} games per pool{at}; master seed {}; ratings: {MODEL}. Reproduce with `{command}`.\n",
        entrants.join(", "),
        ladder.games(),
        ladder.seed()
    );
    for table in &tables {
        println!("{}", table.markdown());
    }
    eprintln!("ladder: done in {:.1} s on {threads} threads", started.elapsed().as_secs_f64());
    ExitCode::SUCCESS
}
