//! `catan-server [serve|migrate|verify|openapi] [--bind ADDR] [--data-dir DIR]`

use std::process::ExitCode;

use catan_server::{
    api,
    config::Config,
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

OPTIONS:
    --bind ADDR       listen address (env CATAN_BIND, default 127.0.0.1:8080)
    --data-dir DIR    SQLite file and generated JWT secret (env CATAN_DATA_DIR, default ./data)

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
}

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
