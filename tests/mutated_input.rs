//! The sample bots on mutated input: the input samples with values replaced,
//! removed or inserted at random places (seeded), lines cut short, whole
//! later requests replaced by junk. Whatever the input, a bot must not
//! panic, must exit cleanly once its input ends, and must answer every
//! request with an answer of the protocol's shape (the fallback when the
//! request makes no sense), as `../shared/specs/botzone.md` asks of a bot
//! that meets malformed input.

mod common;

use std::path::PathBuf;
use std::process::{Command, Output};
use std::time::Duration;

use botzone::games::enclosure::line_protocol::{parse_action, parse_pos};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};

/// Mutated inputs per bot and sample.
const CASES: usize = 12;

fn run(bin: &str, input: &str) -> Output {
    let mut cmd = Command::new(PathBuf::from(bin));
    cmd.env("BOTZONE_TIME_LIMIT", "0.03")
        .env("BOTZONE_SEED", "7")
        .env_remove("BOTZONE_ITERATIONS");
    common::run_program(cmd, input.as_bytes(), Duration::from_secs(60))
}

/// A value of a kind the judges never send where it stands.
fn junk(rng: &mut StdRng) -> Value {
    let all = [
        Value::Null,
        json!(-1),
        json!(-999_999),
        json!(1u64 << 40),
        json!(1e300),
        json!(-0.5),
        json!(""),
        json!("7"),
        json!([]),
        json!({}),
        json!([1, 2, 3]),
        json!({"action": 12}),
        json!(true),
        json!(255),
        json!(8),
        json!(9),
        json!(100),
    ];
    all.choose(rng).unwrap().clone()
}

/// The paths to every node of `v` (object keys and array places).
fn paths(v: &Value, at: &mut Vec<Vec<Value>>, here: &mut Vec<Value>) {
    at.push(here.clone());
    match v {
        Value::Object(map) => {
            for (k, child) in map {
                here.push(json!(k));
                paths(child, at, here);
                here.pop();
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                here.push(json!(i));
                paths(child, at, here);
                here.pop();
            }
        }
        _ => {}
    }
}

/// One to three random edits of `doc`: a node replaced by junk, removed,
/// or junk inserted into an array.
fn mutate(doc: &Value, rng: &mut StdRng) -> Value {
    let mut doc = doc.clone();
    for _ in 0..rng.gen_range(1..=3) {
        let mut all = Vec::new();
        paths(&doc, &mut all, &mut Vec::new());
        let path = all.choose(rng).unwrap().clone();
        let Some((last, parents)) = path.split_last() else {
            continue;
        };
        let mut parent = &mut doc;
        for step in parents {
            parent = match step {
                Value::String(k) => &mut parent[k.as_str()],
                _ => &mut parent[step.as_u64().unwrap() as usize],
            };
        }
        let roll = rng.gen_range(0..10);
        match (parent, last) {
            (Value::Object(map), Value::String(k)) if roll < 2 => {
                map.remove(k);
            }
            (Value::Array(items), i) if roll < 4 => {
                let i = i.as_u64().unwrap() as usize;
                if roll < 3 {
                    items.remove(i);
                } else {
                    items.insert(i, junk(rng));
                }
            }
            (Value::Object(map), Value::String(k)) => {
                map.insert(k.clone(), junk(rng));
            }
            (Value::Array(items), i) => {
                items[i.as_u64().unwrap() as usize] = junk(rng);
            }
            _ => unreachable!("a path's parent holds its last step"),
        }
    }
    doc
}

/// `text` cut after a random number of characters (at least one).
fn cut(text: &str, rng: &mut StdRng) -> String {
    let chars: Vec<char> = text.chars().collect();
    let n = rng.gen_range(1..=chars.len().max(1));
    chars[..n.min(chars.len())].iter().collect()
}

/// Runs `bin` on `input` and checks the common contract: no panic, a clean
/// exit, and `requests` answers, each accepted by `shape`.
fn check(bin: &str, input: &str, requests: usize, shape: &dyn Fn(&Value) -> bool) {
    let out = run(bin, input);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !err.contains("panicked"),
        "{bin} panicked on {input:?}: {err}"
    );
    assert_eq!(out.status.code(), Some(0), "{bin} on {input:?}: {err}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let answers: Vec<Value> = stdout
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with(">>>BOTZONE"))
        .map(|l| {
            serde_json::from_str(l)
                .unwrap_or_else(|e| panic!("{bin}: {l:?} is not JSON ({e}) on {input:?}"))
        })
        .collect();
    assert_eq!(
        answers.len(),
        requests,
        "{bin}: answers on {input:?}: {stdout}\n{err}"
    );
    for a in &answers {
        assert!(shape(&a["response"]), "{bin}: {a} on {input:?}");
    }
}

/// Mutations of a traditional-mode input (one JSON document), the
/// document cut short now and then.
fn traditional(bin: &str, text: &str, rng: &mut StdRng, shape: &dyn Fn(&Value) -> bool) {
    let doc: Value = serde_json::from_str(text).unwrap();
    for _ in 0..CASES {
        let mut input = mutate(&doc, rng).to_string();
        if rng.gen_bool(0.1) {
            input = cut(&input, rng);
        }
        check(bin, &format!("{input}\n"), 1, shape);
    }
}

/// Mutations of a keep-running input: later lines replaced by junk,
/// mutated or cut short (never empty: every line is a request).
fn keep_running(bin: &str, text: &str, rng: &mut StdRng, shape: &dyn Fn(&Value) -> bool) {
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    for _ in 0..CASES {
        let mut edited: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        for _ in 0..rng.gen_range(1..=2) {
            let k = rng.gen_range(1..edited.len());
            edited[k] = match rng.gen_range(0..3) {
                0 => junk(rng).to_string(),
                1 => match serde_json::from_str::<Value>(&edited[k]) {
                    Ok(v) => mutate(&v, rng).to_string(),
                    Err(_) => junk(rng).to_string(),
                },
                _ => cut(&edited[k], rng),
            };
            if edited[k].trim().is_empty() {
                edited[k] = "null".into();
            }
        }
        let input = edited.join("\n") + "\n";
        check(bin, &input, edited.len(), shape);
    }
}

fn action_code(v: &Value) -> bool {
    v.as_i64().is_some_and(|a| (-1..=7).contains(&a))
}

/// Every traditional-mode sample of `game` in `documents` and its
/// keep-running sample `lines`, mutated, through `bin`.
fn survives(
    bin: &str,
    game: &str,
    documents: &[&str],
    lines: &str,
    seed: u64,
    shape: &dyn Fn(&Value) -> bool,
) {
    let mut rng = StdRng::seed_from_u64(seed);
    for name in documents {
        traditional(bin, &common::read_input_sample(game, name), &mut rng, shape);
    }
    keep_running(
        bin,
        &common::read_input_sample(game, lines),
        &mut rng,
        shape,
    );
}

#[test]
fn pacman_mc_survives_mutated_requests() {
    let documents = ["first-turn.json", "mid-game.json"];
    survives(
        env!("CARGO_BIN_EXE_pacman_mc"),
        "pacman2",
        &documents,
        "keep-running.txt",
        1,
        &|r| action_code(&r["action"]),
    );
}

#[test]
fn tank_minimax_survives_mutated_requests() {
    let documents = ["first_turn_blue.json", "midgame_history_red.json"];
    survives(
        env!("CARGO_BIN_EXE_tank_minimax"),
        "tank",
        &documents,
        "keep_running_blue.txt",
        2,
        &|r| {
            r.as_array()
                .is_some_and(|pair| pair.len() == 2 && pair.iter().all(action_code))
        },
    );
}

/// Enclosure speaks the NOI line protocol: mutated `[START]` and
/// `[STATUS]` lines (numbers out of range or missing, words that are no
/// number, unknown tags) get protocol lines only, never a panic. A status
/// cut short by the end of the input may end the bot with an error code.
#[test]
fn enclosure_mc_survives_mutated_lines() {
    let bin = env!("CARGO_BIN_EXE_enclosure_mc");
    let transcript = common::read_input_sample("enclosure", "selfplay-transcript.txt");
    let lines: Vec<&str> = transcript
        .lines()
        .filter_map(|l| l.strip_prefix("judge >> 0\t"))
        .collect();
    let mut rng = StdRng::seed_from_u64(3);
    let words = ["-1", "11", "999", "x", "", "10", "0", "3", "1.5"];
    for _ in 0..3 * CASES {
        let mut edited: Vec<String> = lines[..rng.gen_range(2..=lines.len())]
            .iter()
            .map(|l| l.to_string())
            .collect();
        for _ in 0..rng.gen_range(1..=3) {
            let k = rng.gen_range(0..edited.len());
            let mut t: Vec<String> = edited[k].split(' ').map(String::from).collect();
            match rng.gen_range(0..5) {
                0 | 1 if t.len() > 1 => {
                    let j = rng.gen_range(1..t.len());
                    t[j] = words.choose(&mut rng).unwrap().to_string();
                }
                2 if t.len() > 1 => {
                    t.remove(rng.gen_range(1..t.len()));
                }
                3 => t.push("junk".into()),
                _ => {
                    t[0] = ["[START]", "[STATUS]", "[FOO]"]
                        .choose(&mut rng)
                        .unwrap()
                        .to_string()
                }
            }
            edited[k] = t.join(" ");
        }
        let input = edited.join("\n") + "\n";
        let out = run(bin, &input);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("panicked"), "panicked on {input:?}: {err}");
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "{input:?}: {:?} {err}",
            out.status
        );
        for line in String::from_utf8_lossy(&out.stdout).lines() {
            let ok = parse_pos(line).is_some() || parse_action(line).is_some();
            assert!(ok, "{line:?} is no protocol line, on {input:?}");
        }
    }
}
