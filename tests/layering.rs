//! The layering rule of `src/` (written out in `src/lib.rs` and `docs/architecture.md`),
//! checked from the source so that it stays true.
//!
//! Every `crate::...` path in code (in `use` lines and inline, comments and strings aside) and
//! every `super::...` path that leaves its top-level module is an import of the top-level module
//! it names. The test fails when a module imports one of a higher layer, when the imports
//! between top-level modules form a cycle, when a file under `src/` belongs to no layer, or when
//! a path names a top-level module that does not exist. Paths are also resolved to the file
//! that defines what they name (through `pub use` re-exports), and the imports between files
//! must not form a cycle either. The engine's base game is checked here too: it names no
//! expansion (issue 28).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::Path;

/// The layers of the crate's top-level modules, bottom first. A module may import modules of
/// its own layer (as long as no cycle forms) and of the layers below it, never one above.
const LAYERS: &[(&str, &[&str])] = &[
    ("foundation", &["error", "telemetry"]),
    ("rating", &["rated"]),
    ("storage", &["store"]),
    ("reads", &["reads"]),
    ("live", &["live"]),
    ("play", &["play"]),
    ("views", &["views"]),
    ("edges", &["auth", "http"]),
    ("state", &["app"]),
    ("handlers", &["api"]),
    ("wiring", &["config", "startup"]),
];

/// One import: a file and the crate path it names.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Import {
    file: String,
    line: usize,
    path: Vec<String>,
    /// Written in a `pub use`: it forwards names to the importers of this file rather than
    /// being a dependency of this file's own code.
    re_export: bool,
}

/// A breach of the rule, readable in a test failure.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Breach {
    /// A file whose top-level module is in no layer.
    Unlayered { file: String, module: String },
    /// `crate::name` where `name` is not a top-level module.
    UnknownModule { file: String, line: usize, name: String },
    /// An import of a higher layer.
    Upward { file: String, line: usize, from: String, to: String },
    /// Top-level modules that import each other, directly or through others.
    Cycle { modules: Vec<String> },
    /// Files that import each other, directly or through others.
    FileCycle { files: Vec<String>, links: Vec<String> },
}

impl fmt::Display for Breach {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Breach::Unlayered { file, module } => write!(f, "{file}: module `{module}` is in no layer"),
            Breach::UnknownModule { file, line, name } => {
                write!(f, "{file}:{line}: `crate::{name}` is not a top-level module")
            }
            Breach::Upward { file, line, from, to } => {
                write!(f, "{file}:{line}: `{from}` ({}) imports `{to}` ({}), a higher layer", layer(from), layer(to))
            }
            Breach::Cycle { modules } => write!(f, "import cycle among the top-level modules {}", modules.join(", ")),
            Breach::FileCycle { files, links } => {
                write!(f, "import cycle among the files {} (first imports: {})", files.join(", "), links.join("; "))
            }
        }
    }
}

fn rank(module: &str) -> Option<usize> {
    LAYERS.iter().position(|(_, modules)| modules.contains(&module))
}

fn layer(module: &str) -> &'static str {
    rank(module).map_or("no layer", |rank| LAYERS[rank].0)
}

/// The module path of a file relative to `src/`: `api/games.rs` is `api::games`,
/// `store/mod.rs` is `store`, `lib.rs` is the crate root (empty).
fn module_of(file: &str) -> Vec<String> {
    let mut parts: Vec<String> = file.trim_end_matches(".rs").split('/').map(str::to_owned).collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    parts
}

/// Returns `source` with comments, string and character literals blanked out (newlines kept),
/// so that only code is searched for paths.
fn code_only(source: &str) -> String {
    let chars: Vec<char> = source.chars().collect();
    let mut out = String::with_capacity(source.len());
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank(chars[i]));
                    i += 1;
                }
            }
        } else if (c == 'r' || c == 'b') && is_raw_string_start(&chars, i) {
            // r"..", r#".."#, br#".."#
            let mut j = i;
            while chars[j] != '#' && chars[j] != '"' {
                j += 1;
            }
            let hashes = chars[j..].iter().take_while(|&&c| c == '#').count();
            j += hashes + 1;
            let closing: Vec<char> = std::iter::once('"').chain(std::iter::repeat_n('#', hashes)).collect();
            while j < chars.len() && !chars[j..].starts_with(&closing) {
                j += 1;
            }
            j = (j + closing.len()).min(chars.len());
            out.extend(chars[i..j].iter().map(|&c| blank(c)));
            i = j;
        } else if c == '"' {
            out.push(' ');
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    out.push(' ');
                    i += 1;
                }
                if i < chars.len() {
                    out.push(blank(chars[i]));
                    i += 1;
                }
            }
            out.push(' ');
            i += 1;
        } else if c == '\'' && is_char_literal(&chars, i) {
            let mut j = i + 1;
            if chars[j] == '\\' {
                j += 1;
            }
            j += 1;
            while j < chars.len() && chars[j] != '\'' {
                j += 1;
            }
            out.extend(chars[i..=j.min(chars.len() - 1)].iter().map(|_| ' '));
            i = j + 1;
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn is_ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

fn is_raw_string_start(chars: &[char], i: usize) -> bool {
    if i > 0 && is_ident_char(chars[i - 1]) {
        return false;
    }
    let mut j = i;
    if chars[j] == 'b' {
        j += 1;
    }
    if chars.get(j) != Some(&'r') {
        return false;
    }
    j += 1;
    while chars.get(j) == Some(&'#') {
        j += 1;
    }
    chars.get(j) == Some(&'"')
}

/// Tells a character literal (`'a'`, `'\n'`, `'\''`) from a lifetime (`'a`).
fn is_char_literal(chars: &[char], i: usize) -> bool {
    match chars.get(i + 1) {
        Some('\\') => true,
        Some(_) => chars.get(i + 2) == Some(&'\''),
        None => false,
    }
}

/// A tiny tokenizer over code: identifiers, `::`, and single punctuation characters.
fn tokens(code: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut line = 1;
    let chars: Vec<char> = code.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if is_ident_char(c) {
            let start = i;
            while i < chars.len() && is_ident_char(chars[i]) {
                i += 1;
            }
            out.push((line, chars[start..i].iter().collect()));
        } else if c == ':' && chars.get(i + 1) == Some(&':') {
            out.push((line, "::".to_owned()));
            i += 2;
        } else {
            out.push((line, c.to_string()));
            i += 1;
        }
    }
    out
}

/// Reads the use tree or path after `crate::` / `super::` starting at `tokens[i]`, pushing
/// every full path; returns the index after it.
fn use_tree(tokens: &[(usize, String)], mut i: usize, prefix: &[String], out: &mut Vec<Vec<String>>) -> usize {
    match tokens.get(i).map(|(_, t)| t.as_str()) {
        Some("{") => {
            i += 1;
            loop {
                match tokens.get(i).map(|(_, t)| t.as_str()) {
                    None => return i,
                    Some("}") => return i + 1,
                    Some(",") => i += 1,
                    Some(_) => {
                        let next = use_tree(tokens, i, prefix, out);
                        // Never stall on a token the grammar above does not know.
                        i = next.max(i + 1);
                    }
                }
            }
        }
        Some("self") => {
            out.push(prefix.to_vec());
            skip_alias(tokens, i + 1)
        }
        Some(t) if t.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_') => {
            let mut path = prefix.to_vec();
            path.push(t.to_owned());
            if tokens.get(i + 1).map(|(_, t)| t.as_str()) == Some("::") {
                match tokens.get(i + 2).map(|(_, t)| t.as_str()) {
                    Some("{") | Some("self") => return use_tree(tokens, i + 2, &path, out),
                    Some(t) if t.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_') => {
                        return use_tree(tokens, i + 2, &path, out)
                    }
                    Some("*") => {
                        path.push("*".to_owned());
                        out.push(path);
                        return i + 3;
                    }
                    _ => {}
                }
            }
            out.push(path);
            skip_alias(tokens, i + 1)
        }
        Some("*") => {
            let mut path = prefix.to_vec();
            path.push("*".to_owned());
            out.push(path);
            i + 1
        }
        _ => {
            // A turbofish or a token the grammar does not know: the prefix itself is the import.
            out.push(prefix.to_vec());
            i
        }
    }
}

fn skip_alias(tokens: &[(usize, String)], i: usize) -> usize {
    if tokens.get(i).map(|(_, t)| t.as_str()) == Some("as") {
        i + 2
    } else {
        i
    }
}

/// Every crate path a file names, resolved to absolute paths (without the `crate` segment):
/// `crate::..`, `super::..`, `self::..` and paths through the file's own child modules.
fn imports(file: &str, source: &str) -> Vec<Import> {
    let file_module = module_of(file);
    let tokens = tokens(&code_only(source));
    let text = |k: usize| tokens.get(k).map(|(_, t)| t.as_str());
    // `mod name;` declares a child, which the file may name without a prefix.
    let children: BTreeSet<&str> = (0..tokens.len())
        .filter(|&k| text(k) == Some("mod") && text(k + 2) == Some(";"))
        .filter_map(|k| text(k + 1))
        .collect();
    let mut found = Vec::new();
    // Inline modules (`mod tests { .. }`) change what `super` and `self` mean: track them with
    // the brace depth at which each opened.
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    while i < tokens.len() {
        let (line, token) = (&tokens[i].0, tokens[i].1.as_str());
        let after = |k: usize| text(i + k);
        let before = |k: usize| i.checked_sub(k).and_then(text);
        let starts_path = after(1) == Some("::") && !matches!(before(1), Some("$" | "::" | "."));
        let base = match token {
            "{" => {
                depth += 1;
                None
            }
            "}" => {
                depth = depth.saturating_sub(1);
                if inline.last().is_some_and(|(_, d)| *d == depth) {
                    inline.pop();
                }
                None
            }
            "mod" if after(2) == Some("{") => {
                if let Some(name) = after(1) {
                    inline.push((name.to_owned(), depth));
                }
                None
            }
            "crate" if starts_path => Some((Vec::new(), i + 2)),
            "super" | "self" if starts_path => {
                let mut base = file_module.clone();
                base.extend(inline.iter().map(|(name, _)| name.clone()));
                let mut k = i;
                if token == "self" {
                    k += 2;
                }
                while text(k) == Some("super") && text(k + 1) == Some("::") {
                    base.pop();
                    k += 2;
                }
                Some((base, k))
            }
            child if starts_path && inline.is_empty() && children.contains(child) => Some((file_module.clone(), i)),
            _ => None,
        };
        let Some((base, k)) = base else {
            i += 1;
            continue;
        };
        let re_export = before(1) == Some("use") && matches!(before(2), Some("pub" | ")"));
        let mut paths = Vec::new();
        let end = use_tree(&tokens, k, &base, &mut paths);
        for path in paths {
            found.push(Import { file: file.to_owned(), line: *line, path, re_export });
        }
        i = end.max(i + 1);
    }
    found
}

/// Checks the rule over `files` (paths relative to `src/` and their sources).
fn check(files: &[(String, String)]) -> Vec<Breach> {
    let mut breaches = BTreeSet::new();
    let top_level: BTreeSet<String> = files.iter().filter_map(|(file, _)| module_of(file).first().cloned()).collect();
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (file, source) in files {
        let module = module_of(file);
        let Some(from) = module.first() else { continue }; // lib.rs declares the modules
        if rank(from).is_none() {
            breaches.insert(Breach::Unlayered { file: file.clone(), module: from.clone() });
            continue;
        }
        for import in imports(file, source) {
            let Some(to) = import.path.first() else { continue };
            if !top_level.contains(to) {
                breaches.insert(Breach::UnknownModule { file: file.clone(), line: import.line, name: to.clone() });
                continue;
            }
            if to == from {
                continue;
            }
            edges.entry(from.clone()).or_default().insert(to.clone());
            if rank(to) > rank(from) {
                breaches.insert(Breach::Upward {
                    file: file.clone(),
                    line: import.line,
                    from: from.clone(),
                    to: to.clone(),
                });
            }
        }
    }
    for modules in cycles(&edges) {
        breaches.insert(Breach::Cycle { modules });
    }
    let file_imports = file_edges(files);
    let file_graph = file_imports.iter().map(|(from, to)| (from.clone(), to.keys().cloned().collect())).collect();
    for members in cycles(&file_graph) {
        let links = members
            .iter()
            .flat_map(|from| {
                file_imports[from]
                    .iter()
                    .filter(|(to, _)| members.contains(to))
                    .map(move |(to, line)| format!("{from}:{line} -> {to}"))
            })
            .collect();
        breaches.insert(Breach::FileCycle { files: members, links });
    }
    breaches.into_iter().collect()
}

/// What the file-level check knows of one file.
struct FileFacts {
    name: String,
    imports: Vec<Import>,
    /// Names of the items the file defines at its top level.
    defines: BTreeSet<String>,
}

/// The names of the items `source` defines outside any block (`fn`, `struct`, ... at brace
/// depth 0), which is where a path `module::Item` finds them.
fn top_level_items(source: &str) -> BTreeSet<String> {
    let tokens = tokens(&code_only(source));
    let mut depth = 0usize;
    let mut items = BTreeSet::new();
    for (k, (_, token)) in tokens.iter().enumerate() {
        match token.as_str() {
            "{" => depth += 1,
            "}" => depth = depth.saturating_sub(1),
            "fn" | "struct" | "enum" | "type" | "const" | "static" | "trait" | "union" | "mod" if depth == 0 => {
                if let Some((_, name)) = tokens.get(k + 1) {
                    items.insert(name.clone());
                }
            }
            _ => {}
        }
    }
    items
}

/// The file-level import graph: an edge from every file to each file whose items it names.
/// A path is resolved to the file that defines the item, following re-exports (`pub use`,
/// globs included), so that a module's facade (`store/mod.rs` re-exporting its children) is
/// not itself a link in a cycle; a re-export adds no edge of its own.
/// Each edge carries the line of the first import that makes it.
fn file_edges(files: &[(String, String)]) -> BTreeMap<String, BTreeMap<String, usize>> {
    let facts: Vec<FileFacts> = files
        .iter()
        .map(|(file, source)| FileFacts {
            name: file.clone(),
            imports: imports(file, source),
            defines: top_level_items(source),
        })
        .collect();
    let by_module: BTreeMap<Vec<String>, usize> =
        files.iter().enumerate().map(|(index, (file, _))| (module_of(file), index)).collect();
    let mut edges: BTreeMap<String, BTreeMap<String, usize>> = BTreeMap::new();
    for fact in &facts {
        for import in fact.imports.iter().filter(|i| !i.re_export) {
            if let Some(target) = resolve(&facts, &by_module, &import.path, 0) {
                if facts[target].name != fact.name {
                    edges
                        .entry(fact.name.clone())
                        .or_default()
                        .entry(facts[target].name.clone())
                        .or_insert(import.line);
                }
            }
        }
    }
    edges
}

/// The file that defines what `path` names: the longest prefix of `path` that is a file's
/// module, then, for the item after it, the file the module re-exports the item from.
fn resolve(
    facts: &[FileFacts],
    by_module: &BTreeMap<Vec<String>, usize>,
    path: &[String],
    hops: usize,
) -> Option<usize> {
    let (length, module) = (0..=path.len()).rev().find_map(|n| by_module.get(&path[..n]).map(|&m| (n, m)))?;
    let Some(item) = path.get(length).filter(|item| *item != "*") else { return Some(module) };
    // Re-exports that chain further than this are not in the tree; stop rather than loop.
    if hops > 8 || facts[module].defines.contains(item) {
        return Some(module);
    }
    let rest = &path[length + 1..];
    let forwarded = facts[module].imports.iter().find_map(|import| match import.path.split_last() {
        Some((last, _)) if last == item => Some([import.path.as_slice(), rest].concat()),
        Some((last, source)) if last == "*" => {
            let candidate = [source, std::slice::from_ref(item), rest].concat();
            let target = resolve(facts, by_module, &candidate, hops + 1)?;
            (facts[target].defines.contains(item) && target != module).then_some(candidate)
        }
        _ => None,
    });
    match forwarded {
        Some(forwarded) => resolve(facts, by_module, &forwarded, hops + 1),
        None => Some(module),
    }
}

/// The strongly connected components of more than one module (Tarjan's algorithm).
fn cycles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct Search<'a> {
        edges: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        found: Vec<Vec<String>>,
    }
    impl<'a> Search<'a> {
        fn visit(&mut self, node: &'a str) {
            let n = self.index.len();
            self.index.insert(node, n);
            self.low.insert(node, n);
            self.stack.push(node);
            self.on_stack.insert(node);
            for next in self.edges.get(node).into_iter().flatten() {
                let next = next.as_str();
                if !self.index.contains_key(next) {
                    self.visit(next);
                    let low = self.low[node].min(self.low[next]);
                    self.low.insert(node, low);
                } else if self.on_stack.contains(next) {
                    let low = self.low[node].min(self.index[next]);
                    self.low.insert(node, low);
                }
            }
            if self.low[node] == self.index[node] {
                let mut component = Vec::new();
                while let Some(top) = self.stack.pop() {
                    self.on_stack.remove(top);
                    component.push(top.to_owned());
                    if top == node {
                        break;
                    }
                }
                if component.len() > 1 {
                    component.sort();
                    self.found.push(component);
                }
            }
        }
    }
    let mut search = Search {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for node in edges.keys() {
        if !search.index.contains_key(node.as_str()) {
            search.visit(node);
        }
    }
    search.found
}

/// Every `.rs` file under `dir`, as paths relative to `root` with `/` separators.
fn rust_files(root: &Path, dir: &Path, out: &mut Vec<(String, String)>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).expect("src/ is readable").flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(root, &path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let relative = path.strip_prefix(root).expect("under src/");
            let name = relative.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/");
            let source = std::fs::read_to_string(&path).expect("source is UTF-8");
            out.push((name, source));
        }
    }
}

#[test]
fn src_keeps_its_layers_and_has_no_import_cycle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&root, &root, &mut files);
    // The binary is its own crate: it sees the library from outside.
    files.retain(|(file, _)| file != "main.rs");
    assert!(files.len() > 20, "found the sources under {}", root.display());
    let breaches = check(&files);
    let report: Vec<String> = breaches.iter().map(ToString::to_string).collect();
    assert!(report.is_empty(), "the layering rule of src/lib.rs is broken:\n{}", report.join("\n"));
}

/// Issue 28, part 2: the engine's base game knows no expansion. No file of `engine/src/base/`,
/// `model/`, `board/` or `view.rs` names `ext` or an expansion in code (comments and strings
/// may): the base game reaches an extension only through the `Extension` trait's hooks.
const EXPANSION_WORDS: [&str; 7] = ["ext", "cities_knights", "seafarers", "wonders", "jungle", "big_river", "five_six"];

/// The engine's base game, under `engine/src/`.
const BASE_GAME: [&str; 4] = ["base", "model", "board", "view.rs"];

/// `(file, word, why)`: a file of the base game allowed to name one expansion word.
const BASE_GAME_MAY_NAME: [(&str, &str, &str); 1] = [(
    "view.rs",
    "wonders",
    "the empty `wonders` list of the protocol's GameView (a wire type), which Wonders' view hook fills",
)];

/// Every `(line, word)` of `source`'s code that names an expansion.
fn expansion_words(source: &str) -> Vec<(usize, String)> {
    tokens(&code_only(source)).into_iter().filter(|(_, token)| EXPANSION_WORDS.contains(&token.as_str())).collect()
}

#[test]
fn the_engines_base_game_names_no_expansion_in_code() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("engine/src");
    let mut files = Vec::new();
    for part in BASE_GAME {
        let path = root.join(part);
        if path.is_dir() {
            rust_files(&root, &path, &mut files);
        } else {
            files.push((part.to_owned(), std::fs::read_to_string(&path).expect("readable")));
        }
    }
    assert!(files.len() > 15, "found the base game's files under {}", root.display());
    let breaches: Vec<String> = files
        .iter()
        .flat_map(|(file, source)| {
            expansion_words(source)
                .into_iter()
                .filter(move |(_, word)| !BASE_GAME_MAY_NAME.iter().any(|(f, w, _)| f == file && w == word))
                .map(move |(line, word)| format!("engine/src/{file}:{line}: `{word}`"))
        })
        .collect();
    assert!(
        breaches.is_empty(),
        "the engine's base game names an expansion (ask a hook of ext::Extension instead):\n{}",
        breaches.join("\n")
    );
}

/// Issue 28: no import circle between the engine's base game and its expansions. The
/// expansions build on the base game's shared parts (`game.rs`, `model/`, `board/`,
/// `protocol/`), never on `base/`: no file under `ext/` reaches a file under `base/` through
/// the file-level import graph, so `base/` may reach `ext/` (through the `Extension` hooks of
/// the ruleset a game holds) without closing a circle.
#[test]
fn the_engines_expansions_reach_no_base_game_file() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("engine/src");
    let mut files = Vec::new();
    rust_files(&root, &root, &mut files);
    assert!(files.len() > 60, "found the engine's files under {}", root.display());
    let edges = file_edges(&files);
    let mut breaches = Vec::new();
    for start in files.iter().map(|(file, _)| file).filter(|file| file.starts_with("ext/")) {
        // Breadth first, remembering the import that first reached each file.
        let mut came_from: BTreeMap<&str, (&str, usize)> = BTreeMap::new();
        let mut queue = std::collections::VecDeque::from([start.as_str()]);
        while let Some(file) = queue.pop_front() {
            if file.starts_with("base/") {
                let mut chain = vec![file.to_owned()];
                let mut at = file;
                while let Some(&(from, line)) = came_from.get(at) {
                    chain.push(format!("{from}:{line}"));
                    at = from;
                }
                chain.reverse();
                breaches.push(chain.join(" -> "));
                break;
            }
            for (next, line) in edges.get(file).into_iter().flatten() {
                if next != start && !came_from.contains_key(next.as_str()) {
                    came_from.insert(next, (file, *line));
                    queue.push_back(next);
                }
            }
        }
    }
    assert!(
        breaches.is_empty(),
        "an expansion reaches the base game's rules (move the shared part to game.rs or model/):\n{}",
        breaches.join("\n")
    );
}

/// The layer table of a document: `(layer, modules)` for every row of a Markdown table whose
/// second column names modules in backticks (`` `store` `` or `` [`store`] ``).
fn layer_table(text: &str, prefix: &str) -> Vec<(String, Vec<String>)> {
    text.lines()
        .filter_map(|line| line.trim_start().strip_prefix(prefix))
        .filter_map(|row| {
            let cells: Vec<&str> = row.trim().trim_matches('|').split('|').map(str::trim).collect();
            let (layer, modules) = (cells.first()?, cells.get(1)?);
            let names: Vec<String> = modules.split('`').skip(1).step_by(2).map(str::to_owned).collect::<Vec<_>>();
            (!names.is_empty() && !layer.starts_with('-')).then(|| (layer.to_string(), names))
        })
        .collect()
}

#[test]
fn the_docs_state_the_same_layers() {
    let expected: Vec<(String, Vec<String>)> = LAYERS
        .iter()
        .map(|(layer, modules)| (layer.to_string(), modules.iter().map(|m| m.to_string()).collect()))
        .collect();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (file, prefix) in [("src/lib.rs", "//! |"), ("docs/architecture.md", "|")] {
        let text = std::fs::read_to_string(root.join(file)).expect("readable");
        assert_eq!(layer_table(&text, prefix), expected, "the layer table of {file}");
    }
}

#[cfg(test)]
mod checker {
    use super::*;

    fn files(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter().map(|(f, s)| (f.to_string(), s.to_string())).collect()
    }

    fn paths(file: &str, source: &str) -> Vec<String> {
        imports(file, source).into_iter().map(|i| i.path.join("::")).collect()
    }

    #[test]
    fn use_trees_inline_paths_and_super_are_resolved() {
        let source = r#"
            use crate::{app::AppState, store::{self, games::find_game as find}, error::*};
            use super::draw;
            // crate::api::ignored in a comment
            const NOTE: &str = "crate::api::ignored in a string";
            fn f<'a>(c: char) -> char { let _ = crate::reads::Reads::new(); 'x' }
            macro_rules! m { () => { $crate::api::x() } }
            #[cfg(test)]
            mod tests {
                use super::*;
                use super::super::geometry;
            }
        "#;
        assert_eq!(
            paths("views/picture/mod.rs", source),
            [
                "app::AppState",
                "store",
                "store::games::find_game",
                "error::*",
                "views::draw",
                "reads::Reads::new",
                "views::picture::*",
                "views::geometry",
            ]
        );
    }

    #[test]
    fn an_upward_import_is_caught() {
        let breaches = check(&files(&[
            ("store/mod.rs", "use crate::api::games::GameResponse;"),
            ("api/mod.rs", "use crate::store::GameRecord;"),
        ]));
        assert!(breaches
            .iter()
            .any(|b| matches!(b, Breach::Upward { from, to, line: 1, .. } if from == "store" && to == "api")));
        assert!(breaches.iter().any(|b| matches!(b, Breach::Cycle { modules } if modules == &["api", "store"])));
    }

    #[test]
    fn a_cycle_within_one_layer_is_caught() {
        let breaches = check(&files(&[
            ("auth/mod.rs", "fn f() { crate::http::limits::x(); }"),
            ("http/cors.rs", "use crate::auth::{self, AuthUser};"),
            ("error.rs", ""),
        ]));
        assert_eq!(breaches, [Breach::Cycle { modules: vec!["auth".into(), "http".into()] }]);
    }

    #[test]
    fn unknown_and_unlayered_modules_are_caught() {
        let breaches = check(&files(&[("gadgets.rs", ""), ("error.rs", "use crate::Thing;")]));
        assert!(breaches.contains(&Breach::Unlayered { file: "gadgets.rs".into(), module: "gadgets".into() }));
        assert!(breaches.contains(&Breach::UnknownModule { file: "error.rs".into(), line: 1, name: "Thing".into() }));
    }

    #[test]
    fn imports_down_and_within_a_layer_pass() {
        let breaches = check(&files(&[
            ("api/games.rs", "use crate::{views::GameResponse, app::AppState, store, error::ApiError};"),
            ("views/mod.rs", "use crate::store::GameRecord; use super::play::turn_timer;"),
            ("app.rs", "use crate::{store, auth::Revocations};"),
            ("auth/mod.rs", "use crate::store::users; use crate::error::ApiError;"),
            ("play/mod.rs", ""),
            ("http/limits.rs", "use crate::store::now;"),
            ("store/mod.rs", "use crate::error::ApiError; use self::games::x;"),
            ("error.rs", ""),
        ]));
        assert_eq!(breaches, []);
    }

    #[test]
    fn files_that_import_each_other_are_caught_with_the_lines_that_do() {
        let breaches = check(&files(&[
            ("store/mod.rs", "pub mod games;\npub mod seats;"),
            ("store/games.rs", "use super::seats::SeatHolder;\npub struct GameRow;"),
            ("store/seats.rs", "pub struct SeatHolder;\nfn f() { super::games::GameRow; }"),
            ("error.rs", ""),
        ]));
        assert_eq!(
            breaches,
            [Breach::FileCycle {
                files: vec!["store/games.rs".into(), "store/seats.rs".into()],
                links: vec!["store/games.rs:1 -> store/seats.rs".into(), "store/seats.rs:2 -> store/games.rs".into()],
            }]
        );
    }

    #[test]
    fn a_path_through_a_re_exporting_facade_reaches_the_defining_file() {
        // `store/mod.rs` re-exports its children, and `games.rs` uses `now` from it: the
        // facade is no link between `games.rs` and `moves.rs`, which only import downwards.
        let breaches = check(&files(&[
            ("store/mod.rs", "pub mod games;\npub mod moves;\npub use self::{games::*, moves::*};\npub fn now() {}"),
            ("store/games.rs", "use super::now;\npub struct GameRow;"),
            ("store/moves.rs", "use crate::store::GameRow;\npub struct MoveRow;"),
            ("api/games.rs", "use crate::store::{GameRow, MoveRow};"),
            ("error.rs", ""),
        ]));
        assert_eq!(breaches, []);
        let edges = file_edges(&files(&[
            ("store/mod.rs", "mod games;\npub use games::GameRow as Row;"),
            ("store/games.rs", "pub struct GameRow;"),
            ("store/moves.rs", "fn f() { crate::store::games::GameRow; }"),
        ]));
        assert_eq!(edges["store/moves.rs"].keys().collect::<Vec<_>>(), ["store/games.rs"]);
    }

    #[test]
    fn a_child_module_named_without_a_prefix_is_an_import() {
        let edges = file_edges(&files(&[
            ("views/picture/mod.rs", "mod draw;\npub fn board() { draw::svg(); }"),
            ("views/picture/draw.rs", "pub fn svg() {}"),
        ]));
        assert_eq!(edges["views/picture/mod.rs"].keys().collect::<Vec<_>>(), ["views/picture/draw.rs"]);
    }

    #[test]
    fn expansion_words_are_found_in_code_and_not_in_comments_or_strings() {
        let source = r#"
            // ext::seafarers in a comment
            /* cities_knights in a block comment */
            const NOTE: &str = "jungle in a string";
            fn f(game: &Game) -> bool { game.ext.wonders.claims.is_empty() }
            use crate::ext::five_six::Board;
        "#;
        let expected = [(5, "ext"), (5, "wonders"), (6, "ext"), (6, "five_six")];
        assert_eq!(expansion_words(source), expected.map(|(line, word)| (line, word.to_owned())));
    }
}
