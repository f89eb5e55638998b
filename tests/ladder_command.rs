//! `catan-server ladder` as a user runs it: the same arguments print the same tables, and bad
//! arguments are refused with exit code 2 and a message, not a panic.

use std::process::{Command, Output};

fn ladder(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_catan-server")).arg("ladder").args(args).output().expect("run catan-server")
}

#[test]
fn the_same_arguments_print_the_same_tables() {
    let args = ["--games", "4", "--seed", "9", "--pools", "base,wonders", "--players", "3"];
    let first = ladder(&args);
    assert!(first.status.success(), "{}", String::from_utf8_lossy(&first.stderr));
    let stdout = String::from_utf8(first.stdout).unwrap();
    assert!(stdout.contains("### base (3 players): 4 games"), "{stdout}");
    assert!(stdout.contains("### wonders (3 players): 4 games"), "{stdout}");
    assert!(stdout.contains("| builtin:heuristic | 4 |"), "{stdout}");
    assert!(
        stdout.contains("`catan-server ladder --games 4 --seed 9 --pools base,wonders --players 3`"),
        "the tables name the command that reproduces them: {stdout}"
    );
    assert!(String::from_utf8_lossy(&first.stderr).contains("ladder: wonders: 4/4 games"));
    assert_eq!(String::from_utf8(ladder(&args).stdout).unwrap(), stdout);
}

#[test]
fn bad_arguments_exit_with_2_and_say_why() {
    for (args, says) in [
        (&["--games", "0"][..], "games per pool"),
        (&["--games", "many"][..], "--games needs a whole number"),
        (&["--seed", "-1"][..], "--seed needs a whole number"),
        (&["--pools", "base,chess"][..], "unknown pool \"chess\""),
        (&["--pools", "five_six", "--players", "4"][..], "pool five_six plays 5 to 6 players, not 4"),
        (&["--players", "7"][..], "no pool seats 7 players"),
        (&["--games"][..], "--games needs a value"),
        (&["--turbo"][..], "unknown ladder argument"),
        (&["--account", "ada=token"][..], "--account needs --server"),
        (&["--parallel", "2"][..], "--parallel needs --server"),
        (&["--server", "http://127.0.0.1:9", "--account", "ada"][..], "--account needs NAME=TOKEN"),
        (&["--server", "http://127.0.0.1:9", "--turn-timer", "1"][..], "--turn-timer must be 5 to"),
        (&["--server", "http://127.0.0.1:9", "--parallel", "0"][..], "--parallel must be at least 1"),
        (&["--bots", "chess"][..], "--bots"),
        (&["--bots", "none"][..], "at least two entrants"),
        (&["--bots", "random,random"][..], "named twice"),
    ] {
        let out = ladder(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(says) && !stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn a_server_that_cannot_be_reached_is_an_error_not_a_panic() {
    // Port 9 (discard) has no Catan server; nothing listens there on a test machine.
    let out = ladder(&["--server", "http://127.0.0.1:9", "--account", "ada=token", "--games", "2"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("error: the token given for ada: GET /users/me") && !stderr.contains("panicked"),
        "{stderr}"
    );
    assert!(out.stdout.is_empty());
}
