//! The official judges, call by call: every call of the Pacman2 and Tank
//! judges recorded in `tests/fixtures/judge_logs/` (see its README) is
//! replayed through `botzone judge` (the function the arena referees with
//! in-process: one implementation), and every request stream in those
//! games is fed to our bots in traditional and keep-running mode.
//!
//! `BOTZONE_GOLDEN_DIR=DIR` adds `DIR/judge_logs/<game>*.jsonl`.

#[path = "../../tests/common/mod.rs"]
mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use botzone::games::pacman2::{Action, Map, Pacman2};
use botzone::games::tank::{Field, TankAction};
use serde_json::{json, Value};

/// One recorded call: what the judge was given and what it answered.
struct Call {
    input: Value,
    output: Value,
}

/// The recorded files for `game`: the fixture, and those of
/// `BOTZONE_GOLDEN_DIR` when set.
fn log_files(game: &str) -> Vec<PathBuf> {
    let mut files = vec![common::fixture(&format!("judge_logs/{game}.jsonl"))];
    if let Ok(dir) = std::env::var("BOTZONE_GOLDEN_DIR") {
        let dir = Path::new(&dir).join("judge_logs");
        if let Ok(entries) = std::fs::read_dir(&dir) {
            let mut more: Vec<PathBuf> = entries
                .flatten()
                .map(|e| e.path())
                .filter(|p| {
                    let name = p.file_name().unwrap().to_string_lossy();
                    name.starts_with(game) && name.ends_with(".jsonl")
                })
                .collect();
            more.sort();
            files.extend(more);
        }
    }
    files
}

/// The games of a file: its calls, split where a call's log is empty.
fn games(path: &Path) -> Vec<Vec<Call>> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut games: Vec<Vec<Call>> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let mut v: Value = serde_json::from_str(line)
            .unwrap_or_else(|e| panic!("{} line {}: {e}", path.display(), i + 1));
        let call = Call {
            input: v["input"].take(),
            output: v["output"].take(),
        };
        let fresh = call.input["log"].as_array().is_some_and(Vec::is_empty);
        if fresh || games.is_empty() {
            games.push(Vec::new());
        }
        games.last_mut().unwrap().push(call);
    }
    games
}

fn all_games(game: &str) -> Vec<(String, Vec<Call>)> {
    let mut out = Vec::new();
    for file in log_files(game) {
        for (g, calls) in games(&file).into_iter().enumerate() {
            out.push((format!("{} game {g}", file.display()), calls));
        }
    }
    out
}

fn run(program: &Path, args: &[&str], env: &[(&str, &str)], stdin: &[u8]) -> Output {
    let mut command = Command::new(program);
    command.args(args).envs(env.iter().copied());
    common::run_program(command, stdin, std::time::Duration::from_secs(120))
}

/// Every call through `botzone judge GAME`: `command`, `content`, `display`
/// and `initdata` (given on the first call only) equal as JSON values (an
/// integer and a real are different values: Pacman2's scores are reals).
fn judge_agrees_with_every_call(game: &str) {
    let botzone = common::bin("botzone");
    let mut calls = 0;
    let mut differences = Vec::new();
    for (name, game_calls) in all_games(game) {
        for (i, call) in game_calls.iter().enumerate() {
            calls += 1;
            let out = run(
                &botzone,
                &["judge", game],
                &[],
                format!("{}\n", call.input).as_bytes(),
            );
            assert!(
                out.status.success(),
                "{name} call {i}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            let ours: Value = serde_json::from_slice(&out.stdout).unwrap();
            for key in ["command", "content", "display", "initdata"] {
                if ours.get(key) != call.output.get(key) {
                    differences.push(format!(
                        "{name} call {i} `{key}`:\n  ours     {}\n  official {}",
                        ours.get(key).map_or("(none)".into(), Value::to_string),
                        call.output
                            .get(key)
                            .map_or("(none)".into(), Value::to_string),
                    ));
                }
            }
        }
    }
    assert!(calls > 0);
    assert!(
        differences.is_empty(),
        "{} of {calls} {game} calls differ; the first:\n{}",
        differences.len(),
        differences[..differences.len().min(5)].join("\n")
    );
    eprintln!("{game}: {calls} judge calls agree");
}

#[test]
fn pacman2_judge_answers_every_official_call_alike() {
    judge_agrees_with_every_call("pacman2");
}

#[test]
fn tank_judge_answers_every_official_call_alike() {
    judge_agrees_with_every_call("tank");
}

/// What one player of a recorded game received and answered.
struct Stream {
    name: String,
    player: usize,
    /// `output.content[player]` of every request call, in order.
    requests: Vec<Value>,
    /// The player's recorded `response` to each request (one per request
    /// except when the game ended on the last one).
    responses: Vec<Value>,
}

/// Every player's request stream in every recorded game of `game`.
fn streams(game: &str, players: usize) -> Vec<Stream> {
    let mut out = Vec::new();
    for (name, calls) in all_games(game) {
        for player in 0..players {
            let key = player.to_string();
            let mut requests = Vec::new();
            let mut responses = Vec::new();
            for (j, call) in calls.iter().enumerate() {
                if call.output["command"] != "request" {
                    break;
                }
                let Some(request) = call.output["content"].get(&key) else {
                    continue;
                };
                requests.push(request.clone());
                // The answers to call j are in the log of call j + 1.
                let entry = calls
                    .get(j + 1)
                    .map(|next| next.input["log"][2 * j + 1][&key].clone())
                    .unwrap_or(Value::Null);
                if entry["verdict"] == "OK" {
                    responses.push(entry["response"].clone());
                } else {
                    break; // the player's last turn: the judge ends it
                }
            }
            if !requests.is_empty() {
                out.push(Stream {
                    name: format!("{name} player {player}"),
                    player,
                    requests,
                    responses,
                });
            }
        }
    }
    out
}

/// The environment of a bot under test: a small fixed budget per turn.
const BOT_ENV: [(&str, &str); 3] = [
    ("BOTZONE_ITERATIONS", "200"),
    ("BOTZONE_SEED", "7"),
    ("BOTZONE_TIME_LIMIT", "0.2"),
];

/// The traditional-mode input of turn `k` (0-based) of a stream.
fn history(stream: &Stream, k: usize) -> String {
    json!({
        "requests": stream.requests[..=k],
        "responses": stream.responses[..k],
    })
    .to_string()
}

/// A keep-running run of the whole stream: the first input, then each later
/// request on a line of its own.
fn keep_running_input(stream: &Stream) -> String {
    let mut text = history(stream, 0) + "\n";
    for r in &stream.requests[1..] {
        text += &format!("{r}\n");
    }
    text
}

/// The answers of a keep-running run: each answer line, one per marker.
fn keep_running_answers(stdout: &str, name: &str) -> Vec<Value> {
    let lines: Vec<&str> = stdout.lines().collect();
    let mut answers = Vec::new();
    for pair in lines.chunks(2) {
        assert_eq!(
            pair.get(1).copied(),
            Some(botzone::protocol::KEEP_RUNNING_MARKER),
            "{name}: every answer is followed by the marker:\n{stdout}"
        );
        answers.push(serde_json::from_str(pair[0]).unwrap());
    }
    answers
}

/// Exit code 0; with `clean`, nothing on stderr but warnings.
fn check_exit(out: &Output, name: &str, clean: bool) {
    assert_eq!(
        out.status.code(),
        Some(0),
        "{name}: exit status\nstderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!clean || !stderr.contains("bot error"), "{name}: {stderr}");
}

/// A Pacman2 bot's answer: a valid action for `player` in `game`.
fn check_pacman2_answer(answer: &Value, game: &Pacman2, player: usize, name: &str) {
    let code = answer["response"]["action"]
        .as_i64()
        .unwrap_or_else(|| panic!("{name}: no action in {answer}"));
    assert!(
        game.is_valid(player, Action::from_code(code)),
        "{name}: action {code} is not valid at turn {}\n{game}",
        game.turn()
    );
}

/// The states before each request of a Pacman2 stream, as the requests
/// describe them (the first request holds the map, each later one every
/// live player's action of the turn before).
fn pacman2_states(stream: &Stream) -> Vec<Pacman2> {
    let map =
        Map::from_json(&botzone::json::Value::parse(&stream.requests[0].to_string()).unwrap())
            .unwrap();
    let mut game = Pacman2::new(&map);
    let mut states = vec![game.clone()];
    for (k, r) in stream.requests.iter().enumerate().skip(1) {
        let r = botzone::json::Value::parse(&r.to_string()).unwrap();
        let joint = game
            .joint_from_request(&r, &format!("requests[{k}]"))
            .unwrap();
        game.apply_unchecked(&joint);
        states.push(game.clone());
    }
    states
}

#[test]
fn pacman_mc_plays_every_official_request_stream() {
    pacman2_bot_plays_every_official_request_stream("pacman_mc");
}

#[test]
fn pacman_rules_plays_every_official_request_stream() {
    pacman2_bot_plays_every_official_request_stream("pacman_rules");
}

/// Feeds every recorded Pacman2 request stream to the bot `bot_name`, in
/// traditional and keep-running mode; every answer must be valid.
fn pacman2_bot_plays_every_official_request_stream(bot_name: &str) {
    let bot = common::bin(bot_name);
    let streams = streams("pacman2", 4);
    assert!(!streams.is_empty());
    let mut turns = 0;
    for stream in &streams {
        let states = pacman2_states(stream);
        let id = stream.player;
        // Traditional mode: a fresh process per turn with the whole history.
        for (k, state) in states.iter().enumerate() {
            let name = format!("{} turn {k} (traditional)", stream.name);
            let out = run(&bot, &[], &BOT_ENV, (history(stream, k) + "\n").as_bytes());
            check_exit(&out, &name, true);
            let stdout = String::from_utf8_lossy(&out.stdout);
            let answer: Value = serde_json::from_str(stdout.lines().next().unwrap_or(""))
                .unwrap_or_else(|e| panic!("{name}: {e}: {stdout}"));
            check_pacman2_answer(&answer, state, id, &name);
            turns += 1;
        }
        // Keep-running mode: one process for the whole stream.
        let name = format!("{} (keep-running)", stream.name);
        let out = run(&bot, &[], &BOT_ENV, keep_running_input(stream).as_bytes());
        check_exit(&out, &name, true);
        let answers = keep_running_answers(&String::from_utf8_lossy(&out.stdout), &name);
        assert_eq!(
            answers.len(),
            stream.requests.len(),
            "{name}: stopped early"
        );
        for (k, answer) in answers.iter().enumerate() {
            check_pacman2_answer(answer, &states[k], id, &format!("{name} turn {k}"));
        }
    }
    eprintln!("{bot_name}: {} streams, {turns} turns", streams.len());
}

fn tank_pair(v: &Value, name: &str) -> [TankAction; 2] {
    [0, 1].map(|i| {
        v[i].as_i64()
            .and_then(TankAction::from_code)
            .unwrap_or_else(|| panic!("{name}: not a pair of actions: {v}"))
    })
}

/// A Tank answer: a pair that is valid for `side` on `field` (a destroyed
/// tank stays).
fn check_tank_answer(answer: &Value, field: &Field, side: usize, name: &str) -> [TankAction; 2] {
    let pair = tank_pair(&answer["response"], name);
    for (t, &a) in pair.iter().enumerate() {
        assert!(
            field.is_valid(side, t, a),
            "{name}: tank {t} cannot play {a:?} at turn {}\n{field}",
            field.turn()
        );
    }
    pair
}

/// The bricks and side of a first Tank request.
fn tank_start(request: &Value) -> (Field, usize) {
    let bricks = [0, 1, 2].map(|i| request["field"][i].as_u64().unwrap() as u32);
    (
        Field::new(bricks),
        request["mySide"].as_u64().unwrap() as usize,
    )
}

#[test]
fn tank_minimax_plays_every_official_request_stream() {
    tank_bot_plays_every_official_request_stream("tank_minimax");
}

#[test]
fn tank_rules_plays_every_official_request_stream() {
    tank_bot_plays_every_official_request_stream("tank_rules");
}

/// Feeds every recorded Tank request stream to the bot `bot_name`, in
/// traditional and keep-running mode; every answer must be valid.
fn tank_bot_plays_every_official_request_stream(bot_name: &str) {
    let bot = common::bin(bot_name);
    let streams = streams("tank", 2);
    assert!(!streams.is_empty());
    let mut turns = 0;
    for stream in &streams {
        let (mut field, side) = tank_start(&stream.requests[0]);
        // Traditional mode: our recorded answers and the opponent's make
        // the judge's field, on which every answer must be valid.
        for k in 0..stream.requests.len() {
            let name = format!("{} turn {k} (traditional)", stream.name);
            if k > 0 {
                let mut joint = [[TankAction::Stay; 2]; 2];
                joint[side] = tank_pair(&stream.responses[k - 1], &name);
                joint[1 - side] = tank_pair(&stream.requests[k], &name);
                field.try_apply(joint).unwrap();
            }
            let out = run(&bot, &[], &BOT_ENV, (history(stream, k) + "\n").as_bytes());
            check_exit(&out, &name, true);
            let stdout = String::from_utf8_lossy(&out.stdout);
            let answer: Value = serde_json::from_str(stdout.lines().next().unwrap_or(""))
                .unwrap_or_else(|e| panic!("{name}: {e}: {stdout}"));
            check_tank_answer(&answer, &field, side, &name);
            turns += 1;
        }
        // Keep-running mode: the bot's own answers now differ from the
        // recorded ones, so its field is its answers plus the opponent's
        // actions (one the bot's field rejects counts as staying, as the
        // library reads it); every answer must be valid there. Its game
        // may even end while the recorded one goes on: then it may say so
        // on stderr, and must still answer every request.
        let name = format!("{} (keep-running)", stream.name);
        let out = run(&bot, &[], &BOT_ENV, keep_running_input(stream).as_bytes());
        check_exit(&out, &name, false);
        let answers = keep_running_answers(&String::from_utf8_lossy(&out.stdout), &name);
        assert_eq!(
            answers.len(),
            stream.requests.len(),
            "{name}: stopped early"
        );
        let (mut field, side) = tank_start(&stream.requests[0]);
        for (k, answer) in answers.iter().enumerate() {
            let name = format!("{name} turn {k}");
            if k > 0 && !field.is_over() {
                let theirs = tank_pair(&stream.requests[k], &name);
                let mut joint = [[TankAction::Stay; 2]; 2];
                joint[side] = tank_pair(&answers[k - 1]["response"], &name);
                for t in 0..2 {
                    if field.is_valid(1 - side, t, theirs[t]) {
                        joint[1 - side][t] = theirs[t];
                    }
                }
                field.try_apply(joint).unwrap();
            }
            if !field.is_over() {
                check_tank_answer(answer, &field, side, &name);
            }
        }
    }
    eprintln!("{bot_name}: {} streams, {turns} turns", streams.len());
}
