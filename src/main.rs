//! `catan-server [serve|migrate|verify|openapi] [--bind ADDR] [--data-dir DIR]`, and
//! `catan-server ladder [--games N] [--seed S] [--pools NAME,...] [--players N]`

use std::{
    process::ExitCode,
    time::{Duration, Instant},
};

use catan_engine::bots::BotKind;
use catan_server::{
    api,
    config::Config,
    rated::{
        ladder::{self, Ladder},
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
    catan-server ladder [--games N] [--seed S] [--pools NAME,...] [--players N]
                                                          play the built-in bots against each other in
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
}

/// Games per pool by default: about 10 s for all five pools in release on two cores.
const LADDER_GAMES: u32 = 1_000;
/// The master seed by default, so that a bare `catan-server ladder` gives today's table.
const LADDER_SEED: u64 = 1;

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
    let mut ladder = LadderArgs { games: LADDER_GAMES, seed: LADDER_SEED, pools: None, players: None };
    while let Some(arg) = args.next() {
        if matches!(arg.as_str(), "-h" | "--help" | "help") {
            return Err(String::new());
        }
        let (name, inline) = match arg.split_once('=') {
            Some((name, value)) if name.starts_with("--") => (name.to_owned(), Some(value.to_owned())),
            _ => (arg, None),
        };
        if !matches!(name.as_str(), "--games" | "--seed" | "--pools" | "--players") {
            return Err(format!("unknown ladder argument {name:?}"));
        }
        let value = inline.or_else(|| args.next()).ok_or(format!("{name} needs a value"))?;
        match name.as_str() {
            "--games" => ladder.games = number(&name, &value)?,
            "--seed" => ladder.seed = number(&name, &value)?,
            "--players" => ladder.players = Some(number(&name, &value)?),
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
    let ladder = match Ladder::new(args.seed, args.games, pools, BotKind::ALL.to_vec()) {
        Ok(ladder) => ladder,
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::from(2);
        }
    };
    let entrants = ladder.entrants().len();
    if !(ladder.games() as usize).is_multiple_of(entrants) {
        // Lineups are dealt in groups of one game per entrant (docs/ladder.md): a partial
        // group leaves some entrant with more seats, which the seat counts of the table show.
        eprintln!("ladder: note: {} games is not a multiple of the {entrants} entrants", ladder.games());
    }
    let threads = std::thread::available_parallelism().map_or(1, usize::from);
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
    let tables = match ladder.run(threads, &mut progress) {
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
    let entrants: Vec<String> = ladder.entrants().iter().map(|kind| format!("builtin:{kind}")).collect();
    println!("## Bot ladder\n");
    println!(
        "Entrants {}; {} games per pool; master seed {}; ratings: {MODEL}. Reproduce with `{command}`.\n",
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
