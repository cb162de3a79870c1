//! The CLI is written once for every game: no source file of `cli/src`
//! names a game (`pacman`, `tank`, `enclosure`, in any case) outside
//! comments and unit tests. The only list of games is the library's
//! registry (`botzone::games::registry::GameKind`), so adding a game takes
//! no change here: the count of CLI files that name a game is zero.

use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The code of a file that the CLI runs: without comments, and without the
/// unit tests (everything from the first `#[cfg(test)]` on, where this
/// project keeps them).
fn running_code(text: &str) -> String {
    let mut code = String::new();
    for line in text.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("#[cfg(test)]") {
            break;
        }
        if trimmed.starts_with("//") {
            continue;
        }
        let line = match line.find("// ") {
            Some(at) => &line[..at],
            None => line,
        };
        code.push_str(line);
        code.push('\n');
    }
    code
}

#[test]
fn no_cli_source_file_names_a_game() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    assert!(files.len() > 5, "{files:?}");
    let mut naming = Vec::new();
    for file in &files {
        let code = running_code(&std::fs::read_to_string(file).unwrap()).to_lowercase();
        for game in ["pacman", "tank", "enclosure"] {
            if let Some(at) = code.find(game) {
                let line = code[..at].lines().count();
                naming.push(format!("{} (`{game}`, code line {line})", file.display()));
            }
        }
    }
    assert!(
        naming.is_empty(),
        "CLI files that name a game (the registry in the library is the only list of games): {naming:#?}"
    );
}

#[test]
fn the_check_sees_a_game_name_in_code_but_not_in_comments_or_tests() {
    assert!(running_code("let g = GameKind::Tank;\n")
        .to_lowercase()
        .contains("tank"));
    assert!(
        !running_code("// Tank\n/// Pacman2\nlet x = 1; // enclosure\n")
            .to_lowercase()
            .contains("tank")
    );
    assert!(
        !running_code("fn f() {}\n#[cfg(test)]\nmod tests { Tank }\n")
            .to_lowercase()
            .contains("tank")
    );
}
