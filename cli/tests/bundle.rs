//! `botzone bundle`: every bot in bots/ bundles into one file that bare
//! `rustc -O --edition 2021` compiles, and the compiled bundle answers the
//! input samples exactly like the cargo-built binary. Also: what a bundle
//! keeps and drops, and the errors for what cannot be bundled.

#[path = "../../tests/common/mod.rs"]
mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

/// How a bundle's answers must match the cargo binary's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Compare {
    /// The same stdout, byte for byte (deterministic bots).
    Exact,
    /// The same protocol shape: as many lines, each the same JSON skeleton
    /// (keys and value types) or the same first token and token count.
    /// Time-limited search answers depend on how many iterations fit in
    /// the time, which differs between two builds (and two runs) even with
    /// a fixed `BOTZONE_SEED`. For a bot of yours that does not honour
    /// `BOTZONE_ITERATIONS`; every sample bot does.
    #[allow(dead_code)]
    Shape,
    /// The same stdout, except the `debug` member of JSON lines (search
    /// statistics with timings): for bots that honour `BOTZONE_ITERATIONS`,
    /// whose answers then depend only on the input and the seed. They run
    /// with a generous time limit so that the budget, not the clock, ends
    /// every search.
    Answers,
}

/// Each bot of bots/: the input-samples/ directory it answers, inputs
/// made here (see `generated_inputs`) and how to compare.
const BOTS: &[(&str, &str, Compare)] = &[
    ("echo_bot", "echo", Compare::Exact),
    ("pacman_mc", "pacman2", Compare::Answers),
    ("tank_minimax", "tank", Compare::Answers),
    ("enclosure_mc", "enclosure", Compare::Answers),
    ("enclosure_greedy", "enclosure", Compare::Exact),
    ("tank_rules", "tank", Compare::Exact),
    ("pacman_rules", "pacman2", Compare::Exact),
];

/// The seed and the per-turn time limit both programs run with.
const SEED: &str = "20261121";
const TIME_LIMIT: &str = "0.2";
/// The per-turn time limit under [`Compare::Answers`].
const GENEROUS_TIME_LIMIT: &str = "10";
/// A fixed search budget (iterations per turn) for bots that honour
/// `BOTZONE_ITERATIONS`: with it and the seed, a search bot's answer no
/// longer depends on speed ([`Compare::Answers`]).
const ITERATIONS: &str = "300";

fn root() -> PathBuf {
    common::root()
}

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("bundle-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `botzone bundle <args>` in `cwd`.
fn botzone_bundle(cwd: &Path, args: &[&str]) -> Output {
    Command::new(common::bin("botzone"))
        .arg("bundle")
        .args(args)
        .current_dir(cwd)
        .output()
        .expect("run botzone bundle")
}

/// Bundles `bot` (a name or a path) into `dir/<stem>.bundle.rs`; returns
/// the file and bundle's stderr.
fn bundle(bot: &str, dir: &Path, stem: &str) -> (PathBuf, String) {
    let out_file = dir.join(format!("{stem}.bundle.rs"));
    let out = botzone_bundle(&root(), &[bot, "-o", out_file.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        out.status.success(),
        "botzone bundle {bot} failed:\n{stderr}"
    );
    (out_file, stderr)
}

/// Compiles a bundle with bare rustc exactly as a user would (`rustc -O
/// --edition 2021 FILE` in its directory); returns the executable.
fn compile(file: &Path) -> PathBuf {
    let dir = file.parent().unwrap();
    let out = Command::new(std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into()))
        .args(["-O", "--edition", "2021"])
        .arg(file.file_name().unwrap())
        .current_dir(dir)
        .output()
        .expect("run rustc");
    assert!(
        out.status.success(),
        "rustc {} failed:\n{}",
        file.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    // The bundle names its crate after the bot (`#![crate_name]`).
    let stem = file.file_name().unwrap().to_str().unwrap();
    let exe = dir.join(stem.strip_suffix(".bundle.rs").unwrap());
    assert!(exe.is_file(), "rustc did not write {}", exe.display());
    exe
}

/// Runs a bot program on one input, with the fixed seed and time limit
/// (killed after two minutes).
fn run_bot(exe: &Path, input: &[u8], time_limit: &str) -> Output {
    run_program(Command::new(exe), input, time_limit)
}

/// Runs a bot's command (a binary, or `node FILE.js`) on one input, as
/// [`run_bot`] does.
fn run_program(mut command: Command, input: &[u8], time_limit: &str) -> Output {
    command
        .env("BOTZONE_SEED", SEED)
        .env("BOTZONE_TIME_LIMIT", time_limit)
        .env("BOTZONE_ITERATIONS", ITERATIONS);
    common::run_program(command, input, Duration::from_secs(120))
}

/// First-turn inputs made from the judges' map generators, for bots whose
/// sample directory may be missing or hold other kinds of files.
fn generated_inputs(bot: &str) -> Vec<(String, Vec<u8>)> {
    let map = |game: &str| {
        let out = Command::new(common::bin("botzone"))
            .args(["map", game, "--seed", "1"])
            .output()
            .expect("run botzone map");
        assert!(out.status.success(), "botzone map {game} failed");
        serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()
    };
    let first = |request: serde_json::Value| {
        serde_json::json!({"requests": [request], "responses": []})
            .to_string()
            .into_bytes()
    };
    match bot {
        "pacman_mc" | "pacman_rules" => (0..2)
            .map(|id| {
                let mut request = map("pacman2");
                request["id"] = id.into();
                (format!("generated pacman2 map 1, id {id}"), first(request))
            })
            .collect(),
        "tank_minimax" | "tank_rules" => (0..2)
            .map(|side| {
                let field = map("tank")["field"].clone();
                let request = serde_json::json!({"field": field, "mySide": side});
                (
                    format!("generated tank field 1, side {side}"),
                    first(request),
                )
            })
            .collect(),
        "enclosure_mc" | "enclosure_greedy" => (0..2)
            .map(|p| {
                (
                    format!("generated [START] {p}"),
                    format!("[START] {p}\n").into_bytes(),
                )
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// A JSON value's skeleton: keys and value types, not values.
fn skeleton(v: &serde_json::Value) -> String {
    use serde_json::Value as J;
    match v {
        J::Null => "null".into(),
        J::Bool(_) => "bool".into(),
        J::Number(_) => "number".into(),
        J::String(_) => "string".into(),
        J::Array(items) => format!(
            "[{}]",
            items.iter().map(skeleton).collect::<Vec<_>>().join(",")
        ),
        J::Object(map) => {
            let mut fields: Vec<String> = map
                .iter()
                .map(|(k, v)| format!("{k}:{}", skeleton(v)))
                .collect();
            fields.sort();
            format!("{{{}}}", fields.join(","))
        }
    }
}

/// A stdout's lines with the `debug` member of JSON lines removed.
fn without_debug(stdout: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(stdout)
        .lines()
        .map(
            |line| match serde_json::from_str::<serde_json::Value>(line) {
                Ok(serde_json::Value::Object(mut map)) => {
                    map.remove("debug");
                    serde_json::Value::Object(map).to_string()
                }
                _ => line.to_owned(),
            },
        )
        .collect()
}

/// A stdout's protocol shape (see [`Compare::Shape`]).
fn shape(stdout: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(stdout)
        .lines()
        .map(
            |line| match serde_json::from_str::<serde_json::Value>(line) {
                Ok(v) => skeleton(&v),
                Err(_) => {
                    let tokens: Vec<&str> = line.split_whitespace().collect();
                    format!("{} +{}", tokens.first().unwrap_or(&""), tokens.len())
                }
            },
        )
        .collect()
}

/// Bundles, compiles and runs `bot` against its cargo binary on every file
/// of its sample directory and on the generated inputs.
fn check_bot(bot: &str) {
    let &(_, sample_dir, compare) = BOTS
        .iter()
        .find(|(name, _, _)| *name == bot)
        .expect("bot in BOTS");
    let dir = scratch(bot);
    let (file, stderr) = bundle(bot, &dir, bot);
    let size = std::fs::metadata(&file).unwrap().len();
    assert!(
        stderr.contains(&format!("{size} bytes")),
        "botzone bundle should report the size ({size} bytes):\n{stderr}"
    );
    eprintln!(
        "{bot}: bundle {size} bytes ({:.1} KB)",
        size as f64 / 1024.0
    );
    let exe = compile(&file);
    compare_with_binary(bot, sample_dir, compare, || Command::new(&exe));
}

/// Runs the program `command` makes and `bot`'s cargo binary on every file
/// of the bot's sample directory and on the generated inputs, and compares
/// their answers and exit codes as `compare` says.
fn compare_with_binary(
    bot: &str,
    sample_dir: &str,
    compare: Compare,
    command: impl Fn() -> Command,
) {
    let samples = root().join("input-samples").join(sample_dir);
    let mut inputs: Vec<(String, Vec<u8>)> = Vec::new();
    if samples.is_dir() {
        let mut files: Vec<PathBuf> = std::fs::read_dir(&samples)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.is_file())
            .collect();
        files.sort();
        for f in files {
            inputs.push((f.display().to_string(), std::fs::read(&f).unwrap()));
        }
    }
    inputs.extend(generated_inputs(bot));
    if inputs.is_empty() {
        eprintln!("{bot}: no inputs, bundle compiled only");
        return;
    }
    let binary = common::bin(bot);
    for (name, text) in inputs {
        let limit = if compare == Compare::Answers {
            GENEROUS_TIME_LIMIT
        } else {
            TIME_LIMIT
        };
        let from_bundle = run_program(command(), &text, limit);
        let from_cargo = run_bot(&binary, &text, limit);
        let context = format!(
            "{bot} on {name}\nbundle stdout:\n{}\ncargo stdout:\n{}\nbundle stderr:\n{}\ncargo stderr:\n{}",
            String::from_utf8_lossy(&from_bundle.stdout),
            String::from_utf8_lossy(&from_cargo.stdout),
            String::from_utf8_lossy(&from_bundle.stderr),
            String::from_utf8_lossy(&from_cargo.stderr),
        );
        match compare {
            Compare::Exact => assert!(
                from_bundle.stdout == from_cargo.stdout,
                "the bundle's stdout differs from the cargo binary's: {context}"
            ),
            Compare::Answers => assert_eq!(
                without_debug(&from_bundle.stdout),
                without_debug(&from_cargo.stdout),
                "the bundle's answers differ from the cargo binary's: {context}"
            ),
            Compare::Shape => assert_eq!(
                shape(&from_bundle.stdout),
                shape(&from_cargo.stdout),
                "the bundle's answers differ in shape from the cargo binary's: {context}"
            ),
        }
        assert_eq!(
            from_bundle.status.code(),
            from_cargo.status.code(),
            "exit codes differ: {context}"
        );
    }
}

#[test]
fn echo_bot_bundle_answers_like_the_binary() {
    check_bot("echo_bot");
}

#[test]
fn pacman_mc_bundle_answers_like_the_binary() {
    check_bot("pacman_mc");
}

#[test]
fn tank_minimax_bundle_answers_like_the_binary() {
    check_bot("tank_minimax");
}

#[test]
fn enclosure_mc_bundle_answers_like_the_binary() {
    check_bot("enclosure_mc");
}

#[test]
fn enclosure_greedy_bundle_answers_like_the_binary() {
    check_bot("enclosure_greedy");
}

#[test]
fn tank_rules_bundle_answers_like_the_binary() {
    check_bot("tank_rules");
}

#[test]
fn pacman_rules_bundle_answers_like_the_binary() {
    check_bot("pacman_rules");
}

// --- `botzone bundle --target js`: the bot as one .js file for Node.js ---

/// The tool a JS-bundle test needs, or a failure that says how to get it
/// (`.ci/run` installs them all).
fn require_tool(program: &str, install: &str) {
    let ok = Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        ok,
        "this test needs `{program}`: {install} (.ci/run installs it)"
    );
}

fn require_js_tools() {
    require_tool("node", "apt-get install nodejs");
    require_tool("wasm-opt", "npm install -g binaryen@132");
}

/// `botzone bundle <bot> --target js`, built once per bot for the whole
/// test binary: the file, and what the command printed.
fn js_bundle(bot: &str) -> (PathBuf, String) {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    static BUILT: OnceLock<Mutex<HashMap<String, (PathBuf, String)>>> = OnceLock::new();
    require_js_tools();
    let mut built = BUILT
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    built
        .entry(bot.to_string())
        .or_insert_with(|| {
            let dir = scratch(&format!("{bot}-js"));
            let file = dir.join(format!("{bot}.bundle.js"));
            let out = botzone_bundle(
                &root(),
                &[bot, "--target", "js", "-o", file.to_str().unwrap()],
            );
            let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
            assert!(
                out.status.success(),
                "botzone bundle {bot} --target js failed:\n{stderr}"
            );
            (file, stderr)
        })
        .clone()
}

/// The WebAssembly module inside a JS bundle (its one base64 literal).
fn wasm_of(js: &str) -> Vec<u8> {
    use base64::Engine as _;
    let start = js
        .find("var WASM_BASE64 = '")
        .expect("the module's literal")
        + 19;
    let len = js[start..].find('\'').expect("the literal's end");
    base64::engine::general_purpose::STANDARD
        .decode(&js[start..start + len])
        .expect("valid base64")
}

/// Bundles `bot` for Node.js and runs `node FILE` against its cargo binary
/// on every input (see [`check_bot`]).
fn check_js(bot: &str) {
    let &(_, sample_dir, compare) = BOTS
        .iter()
        .find(|(name, _, _)| *name == bot)
        .expect("bot in BOTS");
    let (file, stderr) = js_bundle(bot);
    let size = std::fs::metadata(&file).unwrap().len();
    assert!(
        stderr.contains(&format!("{size} bytes")),
        "botzone bundle --target js should report the size ({size} bytes):\n{stderr}"
    );
    let text = std::fs::read_to_string(&file).unwrap();
    let wasm = wasm_of(&text);
    assert!(
        stderr.contains(&format!("WebAssembly module: {} bytes", wasm.len())),
        "{stderr}"
    );
    eprintln!(
        "{bot}: JS bundle {size} bytes ({:.1} KB), module {} bytes",
        size as f64 / 1024.0,
        wasm.len()
    );
    assert!(
        size <= 400 * 1024,
        "the JS bundle of {bot} is {size} bytes: over the 400 KB goal"
    );
    compare_with_binary(bot, sample_dir, compare, || {
        let mut node = Command::new("node");
        node.arg(&file);
        node
    });
}

#[test]
fn echo_bot_js_bundle_answers_like_the_binary() {
    check_js("echo_bot");
}

#[test]
fn pacman_mc_js_bundle_answers_like_the_binary() {
    check_js("pacman_mc");
}

#[test]
fn tank_minimax_js_bundle_answers_like_the_binary() {
    check_js("tank_minimax");
}

#[test]
fn enclosure_mc_js_bundle_answers_like_the_binary() {
    check_js("enclosure_mc");
}

#[test]
fn tank_rules_js_bundle_answers_like_the_binary() {
    check_js("tank_rules");
}

#[test]
fn enclosure_greedy_js_bundle_answers_like_the_binary() {
    check_js("enclosure_greedy");
}

#[test]
fn pacman_rules_js_bundle_answers_like_the_binary() {
    check_js("pacman_rules");
}

#[test]
fn every_bot_has_its_rs_and_js_bundle_tests() {
    let source = include_str!("bundle.rs");
    for (bot, _, _) in BOTS {
        for call in [
            format!("check_bot(\"{bot}\")"),
            format!("check_js(\"{bot}\")"),
        ] {
            assert!(source.contains(&call), "no test calls {call}");
        }
    }
}

#[test]
fn a_panic_in_a_js_bundle_answers_the_fallback_and_exits_0_so_botzone_restarts_it() {
    require_js_tools();
    let dir = scratch("panicky-js");
    let file = dir.join("panicky.bundle.js");
    let fixture = root().join("tests/fixtures/bundle/panicky.rs");
    let out = botzone_bundle(
        &root(),
        &[
            fixture.to_str().unwrap(),
            "--target",
            "js",
            "-o",
            file.to_str().unwrap(),
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Keep-running: two good turns, then the panic. WebAssembly cannot
    // unwind: the fallback comes without the keep-running marker and the
    // process ends well, so Botzone starts it afresh on the next turn.
    let input = b"{\"requests\":[\"a\"],\"responses\":[]}\n\"b\"\n\"boom\"\n\"c\"\n";
    let mut node = Command::new("node");
    node.arg(&file);
    let run = run_program(node, input, "1");
    let stdout = String::from_utf8_lossy(&run.stdout);
    let stderr = String::from_utf8_lossy(&run.stderr);
    let marker = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<";
    assert_eq!(
        stdout.lines().collect::<Vec<_>>(),
        [
            r#"{"response":"a"}"#,
            marker,
            r#"{"response":"b"}"#,
            marker,
            r#"{"response":"fallback"}"#
        ],
        "stderr: {stderr}"
    );
    assert_eq!(run.status.code(), Some(0), "stderr: {stderr}");
    assert!(
        stderr.contains("bot error: internal error in the bot: panicked at panicky.bundle.rs:")
            && stderr.contains("the request said boom"),
        "the panic keeps its message and its place in the .rs bundle: {stderr}"
    );
    // The next turn, in traditional mode with the whole history, is
    // answered by a fresh process.
    let mut node = Command::new("node");
    node.arg(&file);
    let history =
        b"{\"requests\":[\"a\",\"b\",\"boom\",\"c\"],\"responses\":[\"a\",\"b\",\"fallback\"]}\n";
    let run = run_program(node, history, "1");
    assert!(String::from_utf8_lossy(&run.stdout).starts_with(r#"{"response":"c"}"#));
}

#[test]
fn bad_input_gets_the_same_error_answer_and_exit_code_from_a_js_bundle() {
    let (file, _) = js_bundle("pacman_mc");
    for input in [
        &b"not json\n"[..],
        b"{\"requests\":[{\"id\":9}],\"responses\":[]}\n",
        b"",
    ] {
        let mut node = Command::new("node");
        node.arg(&file);
        let js = run_program(node, input, "1");
        let native = run_bot(&common::bin("pacman_mc"), input, "1");
        let context = format!(
            "input {:?}\nnode stderr: {}\nnative stderr: {}",
            String::from_utf8_lossy(input),
            String::from_utf8_lossy(&js.stderr),
            String::from_utf8_lossy(&native.stderr)
        );
        assert_eq!(
            without_debug(&js.stdout),
            without_debug(&native.stdout),
            "{context}"
        );
        assert_eq!(js.status.code(), native.status.code(), "{context}");
        assert_eq!(
            String::from_utf8_lossy(&js.stderr).lines().next(),
            String::from_utf8_lossy(&native.stderr).lines().next(),
            "{context}"
        );
    }
}

#[test]
fn a_js_bundle_without_a_fixed_seed_seeds_itself_from_wasi() {
    // `Rng::from_env` once called `std::process::id`, which panics on WASI.
    let (file, _) = js_bundle("pacman_mc");
    let input = std::fs::read(root().join("input-samples/pacman2/first-turn.json")).unwrap();
    let mut child = Command::new("node")
        .arg(&file)
        .env_remove("BOTZONE_SEED")
        .env("BOTZONE_ITERATIONS", "100")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(&input).unwrap();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.is_empty(), "{stderr}");
    let first = String::from_utf8_lossy(&out.stdout);
    let answer: serde_json::Value = serde_json::from_str(first.lines().next().unwrap()).unwrap();
    assert!(answer["response"]["action"].is_i64(), "{answer}");
}

#[test]
fn a_missing_wasm_opt_says_how_to_install_it() {
    let dir = scratch("no-wasm-opt");
    let out = Command::new(common::bin("botzone"))
        .args(["bundle", "echo_bot", "--target", "js", "-o"])
        .arg(dir.join("x.js"))
        .env("WASM_OPT", dir.join("no-such-wasm-opt"))
        .current_dir(root())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stderr.contains("wasm-opt (binaryen) is needed")
            && stderr.contains("npm install -g binaryen@"),
        "{stderr}"
    );
    assert!(!dir.join("x.js").exists());
}

/// The sections of a WebAssembly binary: (id, custom name, contents).
fn sections(wasm: &[u8]) -> Vec<(u8, String, &[u8])> {
    assert_eq!(&wasm[..8], b"\0asm\x01\0\0\0", "a WebAssembly 1 binary");
    let mut out = Vec::new();
    let mut at = 8;
    while at < wasm.len() {
        let id = wasm[at];
        let (len, next) = leb(wasm, at + 1);
        let body = &wasm[next..next + len as usize];
        let name = if id == 0 {
            let (n, p) = leb(body, 0);
            String::from_utf8_lossy(&body[p..p + n as usize]).into_owned()
        } else {
            String::new()
        };
        out.push((id, name, body));
        at = next + len as usize;
    }
    out
}

/// An unsigned LEB128 at `at`: its value and the position after it.
fn leb(bytes: &[u8], mut at: usize) -> (u64, usize) {
    let (mut value, mut shift) = (0u64, 0);
    loop {
        let b = bytes[at];
        at += 1;
        value |= u64::from(b & 0x7f) << shift;
        shift += 7;
        if b < 0x80 {
            return (value, at);
        }
    }
}

/// A name (a length-prefixed string) at `at`.
fn name_at(bytes: &[u8], at: usize) -> (String, usize) {
    let (len, p) = leb(bytes, at);
    let end = p + len as usize;
    (String::from_utf8_lossy(&bytes[p..end]).into_owned(), end)
}

/// A function type: its parameters and results as value-type bytes.
type FuncType = (Vec<u8>, Vec<u8>);

/// The function types of a module,
/// and its imported and exported functions with their type index.
fn boundary(wasm: &[u8]) -> (Vec<FuncType>, Vec<(String, u64)>) {
    let mut types = Vec::new();
    let mut functions = Vec::new();
    let mut imported = 0u64;
    let mut own_types = Vec::new();
    let mut exports = Vec::new();
    for (id, _, body) in sections(wasm) {
        match id {
            1 => {
                let (n, mut p) = leb(body, 0);
                for _ in 0..n {
                    assert_eq!(body[p], 0x60, "a function type (MVP has no other)");
                    let (np, q) = leb(body, p + 1);
                    let params = body[q..q + np as usize].to_vec();
                    let (nr, r) = leb(body, q + np as usize);
                    let results = body[r..r + nr as usize].to_vec();
                    p = r + nr as usize;
                    types.push((params, results));
                }
            }
            2 => {
                let (n, mut p) = leb(body, 0);
                for _ in 0..n {
                    let (module, q) = name_at(body, p);
                    let (field, q) = name_at(body, q);
                    let kind = body[q];
                    p = match kind {
                        0 => {
                            let (ty, r) = leb(body, q + 1);
                            functions.push((format!("import {module}.{field}"), ty));
                            imported += 1;
                            r
                        }
                        1 => panic!("imports a table: {module}.{field}"),
                        2 => panic!("imports a memory: {module}.{field}"),
                        _ => panic!("imports a global: {module}.{field}"),
                    };
                }
            }
            3 => {
                let (n, mut p) = leb(body, 0);
                for _ in 0..n {
                    let (ty, q) = leb(body, p);
                    own_types.push(ty);
                    p = q;
                }
            }
            7 => {
                let (n, mut p) = leb(body, 0);
                for _ in 0..n {
                    let (field, q) = name_at(body, p);
                    let kind = body[q];
                    let (index, r) = leb(body, q + 1);
                    assert!(
                        kind == 0 || kind == 2,
                        "exports only functions and memory: {field}"
                    );
                    if kind == 0 {
                        exports.push((field, index));
                    }
                    p = r;
                }
            }
            _ => {}
        }
    }
    for (field, index) in exports {
        let ty = if index < imported {
            functions[index as usize].1
        } else {
            own_types[(index - imported) as usize]
        };
        functions.push((format!("export {field}"), ty));
    }
    (types, functions)
}

#[test]
fn js_bundle_modules_are_webassembly_1_0_with_no_i64_at_the_js_boundary() {
    let scratch_dir = scratch("mvp");
    // The check itself: binaryen with every post-MVP feature disabled
    // rejects an instruction from the sign-extension proposal.
    let post_mvp = scratch_dir.join("post-mvp.wat");
    std::fs::write(
        &post_mvp,
        "(module (func (export \"f\") (param i32) (result i32) (i32.extend8_s (local.get 0))))",
    )
    .unwrap();
    let rejected = Command::new("wasm-opt")
        .arg(&post_mvp)
        .args(["--mvp-features", "-o"])
        .arg(scratch_dir.join("post-mvp.wasm"))
        .output()
        .unwrap();
    assert!(
        !rejected.status.success(),
        "wasm-opt --mvp-features must reject sign-ext"
    );
    for (bot, _, _) in BOTS {
        let (file, _) = js_bundle(bot);
        let wasm = wasm_of(&std::fs::read_to_string(&file).unwrap());
        let names: Vec<String> = sections(&wasm)
            .into_iter()
            .filter(|(id, _, _)| *id == 0)
            .map(|(_, name, _)| name)
            .collect();
        assert!(
            !names.iter().any(|n| n == "target_features"),
            "{bot}: a target_features section would enable post-MVP features: {names:?}"
        );
        let module = scratch_dir.join(format!("{bot}.wasm"));
        std::fs::write(&module, &wasm).unwrap();
        let validated = Command::new("wasm-opt")
            .arg(&module)
            .args(["--mvp-features", "-o"])
            .arg(scratch_dir.join(format!("{bot}.checked.wasm")))
            .output()
            .unwrap();
        assert!(
            validated.status.success(),
            "{bot}: the module is not valid WebAssembly 1.0:\n{}",
            String::from_utf8_lossy(&validated.stderr)
        );
        let (types, functions) = boundary(&wasm);
        assert!(
            functions.iter().any(|(f, _)| f == "export _start"),
            "{functions:?}"
        );
        for (function, ty) in functions {
            let (params, results) = &types[ty as usize];
            assert!(
                !params.contains(&0x7e) && !results.contains(&0x7e),
                "{bot}: {function} has an i64 in its signature: old Node.js cannot call it"
            );
            assert!(
                results.len() <= 1,
                "{bot}: {function} returns several values (post-MVP)"
            );
        }
    }
}

#[test]
fn a_js_bundle_plays_botzone_matches_against_native_bots() {
    for (bot, game, others) in [("tank_minimax", "tank", 1), ("pacman_mc", "pacman2", 3)] {
        let (file, _) = js_bundle(bot);
        let dir = scratch(&format!("match-{game}"));
        let results = dir.join("results.jsonl");
        let mut command = Command::new(common::bin("botzone"));
        command
            .args(["match", game, "--games", "1", "--jobs", "1", "--no-logs"])
            .arg("--bot")
            .arg(format!("BOTZONE_ITERATIONS=200 node {}", file.display()));
        for _ in 0..others {
            command.arg("--bot").arg(format!(
                "BOTZONE_ITERATIONS=200 {}",
                common::bin(bot).display()
            ));
        }
        let out = command.arg("--out").arg(&results).output().unwrap();
        assert!(
            out.status.success(),
            "botzone match failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = std::fs::read_to_string(&results).unwrap();
        let games: Vec<serde_json::Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(games.len(), 1, "{text}");
        for game in &games {
            let verdicts = game["verdicts"].as_array().unwrap();
            assert!(
                verdicts.iter().all(|v| v == "OK"),
                "a verdict other than OK: {game}\n{}",
                String::from_utf8_lossy(&out.stdout)
            );
        }
    }
}

/// `[[bin]]` names whose source is under bots/ (not bots/baseline/, which
/// holds frozen bundles already).
fn bots_in_cargo_toml() -> Vec<String> {
    let toml = std::fs::read_to_string(root().join("Cargo.toml")).unwrap();
    let mut out = Vec::new();
    let mut name = None;
    for line in toml.lines().map(str::trim) {
        if line.starts_with('[') {
            name = None;
        }
        let value = |key: &str| {
            let rest = line.strip_prefix(key)?.trim_start().strip_prefix('=')?;
            Some(rest.trim().trim_matches('"').to_string())
        };
        if let Some(v) = value("name") {
            name = Some(v);
        } else if let Some(v) = value("path") {
            if v.starts_with("bots/") && !v.starts_with("bots/baseline/") {
                out.extend(name.take());
            }
        }
    }
    out
}

#[test]
fn every_bot_in_bots_has_a_bundle_test() {
    let bots = bots_in_cargo_toml();
    assert!(bots.contains(&"echo_bot".to_string()), "{bots:?}");
    for bot in bots {
        assert!(
            BOTS.iter().any(|(name, _, _)| *name == bot),
            "bots/ binary `{bot}` has no line in tests/bundle.rs BOTS (and no test)"
        );
    }
}

#[test]
fn pacman_mc_bundle_holds_no_other_game_and_is_small() {
    let dir = scratch("pacman-size");
    let (file, stderr) = bundle("pacman_mc", &dir, "pacman_mc");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        stderr.contains(&format!("{} bytes", text.len())),
        "{stderr}"
    );
    // About 150 KB today (the bot's library code without docs and tests);
    // a bundle that pulls in another game's code would pass 200 KB.
    assert!(
        text.len() < 170 * 1024,
        "pacman_mc bundle is {} bytes",
        text.len()
    );
    for other in ["mod tank", "mod enclosure", "Tank", "Enclosure"] {
        assert!(!text.contains(other), "pacman_mc bundle contains `{other}`");
    }
    assert!(text.contains("#![forbid(unsafe_code)]"));
    assert!(!text.contains("#[cfg(test)]") && !text.contains("#[test]"));
    let library = &text[text.find("mod botzone {").expect("mod botzone")..];
    assert!(
        !library.contains("///") && !library.contains("//!"),
        "library docs are dropped"
    );
}

#[test]
fn fixture_bundle_runs_like_the_library() {
    #[allow(dead_code)]
    #[path = "../../tests/fixtures/bundle/pacman_playout.rs"]
    mod pacman_playout;

    let dir = scratch("fixture-playout");
    let fixture = common::fixture("bundle/pacman_playout.rs");
    let (file, stderr) = bundle(fixture.to_str().unwrap(), &dir, "pacman_playout");
    assert!(stderr.contains("games::pacman2"), "{stderr}");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(!text.contains("mod tank") && !text.contains("mod enclosure"));
    assert!(!text.contains("mod protocol"), "protocol is not used");
    let exe = compile(&file);
    let out = run_bot(&exe, b"", TIME_LIMIT);
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        pacman_playout::report()
    );
}

#[test]
fn unreached_modules_are_left_out() {
    let dir = scratch("rng-only");
    let fixture = common::fixture("bundle/rng_only.rs");
    let (file, _) = bundle(fixture.to_str().unwrap(), &dir, "rng_only");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("pub mod rng"));
    assert!(
        text.contains("    // A comment the bundle keeps."),
        "{text}"
    );
    assert!(!text.contains("dropped_from_the_bundle"), "{text}");
    for other in [
        "mod games",
        "mod json",
        "mod protocol",
        "mod fixed",
        "mod search",
    ] {
        assert!(!text.contains(other), "rng-only bundle contains `{other}`");
    }
    let exe = compile(&file);
    let out = run_bot(&exe, b"", TIME_LIMIT);
    let mut rng = botzone::rng::Rng::new(7);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        format!("{}\n", rng.below(1000))
    );
}

#[test]
fn an_external_crate_is_a_clear_error() {
    let dir = scratch("external");
    let fixture = common::fixture("bundle/external_crate.rs");
    let out_file = dir.join("x.rs");
    let out = botzone_bundle(
        &root(),
        &[fixture.to_str().unwrap(), "-o", out_file.to_str().unwrap()],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(stderr.contains("external_crate.rs:4:5"), "{stderr}");
    assert!(
        stderr.contains("`rand::Rng`") && stderr.contains("external crates"),
        "{stderr}"
    );
    assert!(!out_file.exists());
}

#[test]
fn a_proc_macro_derive_is_a_clear_error() {
    let dir = scratch("derive");
    let fixture = common::fixture("bundle/proc_macro_derive.rs");
    let out_file = dir.join("x.rs");
    let out = botzone_bundle(
        &root(),
        &[fixture.to_str().unwrap(), "-o", out_file.to_str().unwrap()],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(stderr.contains("#[derive(Serialize)]"), "{stderr}");
    assert!(stderr.contains("proc-macro"), "{stderr}");
    assert!(
        !stderr.contains("derive(Clone"),
        "std derives are fine: {stderr}"
    );
}

#[test]
fn a_bot_name_resolves_through_cargo_toml_and_writes_to_the_current_directory() {
    let dir = scratch("by-name");
    let out = botzone_bundle(&dir, &["echo_bot"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(dir.join("echo_bot.bundle.rs")).unwrap();
    assert!(text.contains("mod botzone"));
    assert!(
        text.starts_with("// echo_bot: one-file bundle of bots/echo_bot.rs"),
        "{}",
        &text[..200]
    );
}

#[test]
fn an_unknown_bot_name_lists_the_known_ones() {
    let out = botzone_bundle(&root(), &["no_such_bot"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stderr.contains("no bot named `no_such_bot`") && stderr.contains("echo_bot"),
        "{stderr}"
    );
}

/// Copies a directory tree.
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

#[test]
fn a_bot_in_its_own_crate_bundles_the_botzone_version_cargo_resolves() {
    // A user's crate that depends on a botzone (here a stand-in 0.3.0 at a
    // path, in place of a crates.io version): the bundle must carry that
    // library, found through `cargo metadata`, not the one this tool was
    // built from. (`[workspace]`: its own workspace, not the one it sits in.)
    let dir = scratch("own-crate");
    let lib = dir.join("lib");
    copy_tree(&common::fixture("bundle/fakelib"), &lib);
    std::fs::write(
        lib.join("Cargo.toml"),
        "[package]\nname = \"botzone\"\nversion = \"0.3.0\"\nedition = \"2021\"\n",
    )
    .unwrap();
    let user = dir.join("user");
    std::fs::create_dir_all(user.join("src")).unwrap();
    std::fs::copy(lib.join("bots/probe.rs"), user.join("src/main.rs")).unwrap();
    std::fs::write(
        user.join("Cargo.toml"),
        "[package]\nname = \"probe\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\nbotzone = { path = \"../lib\" }\n\n[workspace]\n",
    )
    .unwrap();
    let out = botzone_bundle(&user, &["probe"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let text = std::fs::read_to_string(user.join("probe.bundle.rs")).unwrap();
    assert!(
        text.contains("mod display_elsewhere"),
        "the stand-in library was not used"
    );
    let exe = compile(&user.join("probe.bundle.rs"));
    let run = run_bot(&exe, b"", TIME_LIMIT);
    assert!(String::from_utf8_lossy(&run.stdout).contains("| 0.3.0 |"));
}

#[test]
fn paths_macros_reexports_and_file_literals_survive_bundling() {
    // A stand-in library (tests/fixtures/bundle/fakelib, see its README)
    // with what the real one does not use yet.
    let dir = scratch("fakelib");
    copy_tree(&common::fixture("bundle/fakelib"), &dir);
    std::fs::write(
        dir.join("Cargo.toml"),
        "[package]\nname = \"botzone\"\nversion = \"0.3.0\"\nedition = \"2021\"\n\n[[bin]]\nname = \"probe\"\npath = \"bots/probe.rs\"\n",
    )
    .unwrap();
    let out = botzone_bundle(&dir, &["probe"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let file = dir.join("probe.bundle.rs");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        !text.contains("compile_error"),
        "the unused module was bundled"
    );
    assert!(
        text.contains("mod display_elsewhere"),
        "an impl on a kept type was lost"
    );
    assert!(!text.contains("never_bundled") && !text.contains("only_in_tests"));
    assert!(!text.contains("macro_export") && !text.contains("///"));
    let exe = compile(&file);
    let run = run_bot(&exe, b"", TIME_LIMIT);
    assert!(run.status.success());
    assert_eq!(
        String::from_utf8_lossy(&run.stdout),
        "roses\n    are\n        red\nsquare of area 4 | odd 42 44 | 10 | 9 | 16 | 16 | 0.3.0 | hello from a file\n"
    );
}

#[test]
fn the_whole_library_bundles_and_compiles() {
    let dir = scratch("whole");
    let fixture = common::fixture("bundle/whole_library.rs");
    let (file, stderr) = bundle(fixture.to_str().unwrap(), &dir, "whole_library");
    for module in [
        "games::tank",
        "games::enclosure",
        "games::pacman2",
        "search::duct",
    ] {
        assert!(stderr.contains(module), "{module} missing: {stderr}");
    }
    let exe = compile(&file);
    let out = run_bot(&exe, b"", TIME_LIMIT);
    assert_eq!(String::from_utf8_lossy(&out.stdout), "1\n");
}

/// The public modules of the library (`pub mod x;` / `pub mod x {`),
/// found by reading src/ the way rustc does (x.rs or x/mod.rs).
fn public_modules() -> Vec<String> {
    fn walk(file: &Path, child_dir: &Path, prefix: &str, out: &mut Vec<String>) {
        let text = std::fs::read_to_string(file).unwrap();
        for line in text.lines() {
            let Some(rest) = line.trim().strip_prefix("pub mod ") else {
                continue;
            };
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            let path = if prefix.is_empty() {
                name.clone()
            } else {
                format!("{prefix}::{name}")
            };
            out.push(path.clone());
            if rest[name.len()..].trim_start().starts_with(';') {
                let flat = child_dir.join(format!("{name}.rs"));
                let nested = child_dir.join(&name).join("mod.rs");
                let child = if flat.is_file() { flat } else { nested };
                walk(&child, &child_dir.join(&name), &path, out);
            }
        }
    }
    let mut out = Vec::new();
    let src = root().join("src");
    walk(&src.join("lib.rs"), &src, "", &mut out);
    out
}

#[test]
fn every_public_module_bundles_alone_and_type_checks() {
    // A bot that glob-imports one module gets that module and what it
    // reaches: if reachability missed a dependency, rustc says so.
    let modules = public_modules();
    assert!(
        modules.contains(&"games::pacman2".to_string()),
        "{modules:?}"
    );
    let dir = scratch("per-module");
    for module in &modules {
        let stem = module.replace("::", "_");
        let bot = dir.join(format!("{stem}.rs"));
        std::fs::write(
            &bot,
            format!("#[allow(unused_imports)]\nuse botzone::{module}::*;\n\nfn main() {{}}\n"),
        )
        .unwrap();
        let (file, _) = bundle(bot.to_str().unwrap(), &dir, &stem);
        let out = Command::new(std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into()))
            .args(["--edition", "2021", "--emit=metadata", "--crate-type=bin"])
            .arg(file.file_name().unwrap())
            .current_dir(&dir)
            .output()
            .expect("run rustc");
        assert!(
            out.status.success(),
            "the bundle of a bot using only botzone::{module} does not compile:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
