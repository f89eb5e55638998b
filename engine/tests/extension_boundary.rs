//! Issue 28, part 2: the base game knows no expansion. No file of `base/`, `model/`, `board/`
//! or `view.rs` names `ext/` or an expansion, in code: the base game reaches an extension only
//! through the `Extension` trait's hooks (`game.rules().extensions`). Comments and string
//! literals may mention them; code may not. The one allowed name is a field of a protocol wire
//! type that the base view fills empty (`wonders:` of `GameView`): the wire types may name
//! expansion types (`protocol/`, from each extension's `types.rs`).

use std::path::Path;

/// The words that name an expansion or the extension folder.
const EXPANSION_WORDS: [&str; 7] = ["ext", "cities_knights", "seafarers", "wonders", "jungle", "big_river", "five_six"];

/// The folders and files of the base game.
const BASE_GAME: [&str; 4] = ["base", "model", "board", "view.rs"];

/// `(file, word, why)`: a file allowed to name one expansion word, and the reason.
const ALLOWED: [(&str, &str, &str); 1] =
    [("view.rs", "wonders", "the empty `wonders` list of the protocol's GameView, which Wonders' view hook fills")];

/// `source` without comments, string and character literals (newlines kept).
fn code_only(source: &str) -> String {
    let chars: Vec<char> = source.chars().collect();
    let mut out = String::with_capacity(source.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    if chars[i] == '\n' {
                        out.push('\n');
                    }
                    i += 1;
                }
            }
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    i += 1;
                }
                if chars.get(i) == Some(&'\n') {
                    out.push('\n');
                }
                i += 1;
            }
            out.push_str("\"\"");
            i += 1;
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// Every `(line, word)` of `code` that is one of [`EXPANSION_WORDS`] as a whole identifier.
fn expansion_words(code: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (n, line) in code.lines().enumerate() {
        for word in line.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
            if EXPANSION_WORDS.contains(&word) {
                found.push((n + 1, word.to_owned()));
            }
        }
    }
    found
}

fn rust_files(path: &Path, out: &mut Vec<std::path::PathBuf>) {
    if path.is_dir() {
        let mut entries: Vec<_> = std::fs::read_dir(path).expect("readable").flatten().map(|e| e.path()).collect();
        entries.sort();
        for entry in entries {
            rust_files(&entry, out);
        }
    } else if path.extension().is_some_and(|e| e == "rs") {
        out.push(path.to_path_buf());
    }
}

#[test]
fn the_base_game_names_no_expansion_in_code() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    for part in BASE_GAME {
        rust_files(&src.join(part), &mut files);
    }
    assert!(files.len() > 20, "found the base game's files under {}", src.display());
    let mut breaches = Vec::new();
    for file in &files {
        let name = file.strip_prefix(&src).expect("under src").to_string_lossy().replace('\\', "/");
        let code = code_only(&std::fs::read_to_string(file).expect("UTF-8"));
        for (line, word) in expansion_words(&code) {
            if !ALLOWED.iter().any(|(f, w, _)| *f == name && *w == word) {
                breaches.push(format!("src/{name}:{line}: `{word}`"));
            }
        }
    }
    assert!(
        breaches.is_empty(),
        "the base game names an expansion (use a hook of ext::Extension):\n{}",
        breaches.join("\n")
    );
}

#[test]
fn the_check_sees_code_and_not_comments_or_strings() {
    let source = r#"
        // ext::seafarers in a comment
        /* cities_knights in a block comment */
        const NOTE: &str = "jungle in a string";
        fn f(game: &Game) -> bool { game.ext.wonders.claims.is_empty() }
        use crate::ext::five_six::Board;
    "#;
    let words: Vec<(usize, String)> = expansion_words(&code_only(source));
    let expected = [(5, "ext"), (5, "wonders"), (6, "ext"), (6, "five_six")];
    assert_eq!(words, expected.map(|(line, word)| (line, word.to_owned())));
}
