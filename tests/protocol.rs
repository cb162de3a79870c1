//! The protocol as a program sees it: the example bot `echo_bot` run as a
//! real process on real Botzone inputs, in traditional and keep-running
//! mode, and on hostile input (the error on stderr, the fallback answer on
//! stdout, exit code 0, and in keep-running mode the next request answered).

mod common;

use std::process::{Command, Output};

use botzone::json::Value;
use botzone::protocol::KEEP_RUNNING_MARKER;

fn run_bot(stdin: &[u8]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_echo_bot"));
    command.env("BOTZONE_TIME_LIMIT", "0.2");
    common::run_program(command, stdin, std::time::Duration::from_secs(60))
}

fn sample(name: &str) -> Vec<u8> {
    let path = common::input_sample("echo", name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn lines(out: &Output) -> Vec<String> {
    String::from_utf8(out.stdout.clone())
        .expect("stdout is UTF-8")
        .lines()
        .map(str::to_owned)
        .collect()
}

/// Checks one answer line: `{"response":{"turn":n,"request":req},...}`.
fn check_answer(line: &str, turn: i64, request: &Value) {
    let v = Value::parse(line).unwrap_or_else(|e| panic!("answer is not JSON ({e}): {line}"));
    assert_eq!(v["response"]["turn"].as_i64(), Some(turn), "{line}");
    assert_eq!(&v["response"]["request"], request, "{line}");
    assert_eq!(v["debug"].as_str(), Some(format!("turn {turn}").as_str()));
    assert_eq!(v["data"].as_str(), Some(turn.to_string().as_str()));
}

#[test]
fn traditional_mode_answers_the_last_request() {
    let input = sample("history.json");
    let doc = Value::from_slice(&input).unwrap();
    let out = run_bot(&input);
    assert!(out.status.success(), "{out:?}");
    let lines = lines(&out);
    assert_eq!(lines.len(), 2, "{lines:?}");
    check_answer(&lines[0], 3, &doc["requests"][2]);
    assert_eq!(lines[1], KEEP_RUNNING_MARKER);
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn keep_running_mode_answers_every_turn_then_exits_cleanly() {
    let input = sample("keep-running.txt");
    let text = String::from_utf8(input.clone()).unwrap();
    let docs: Vec<Value> = text.lines().map(|l| Value::parse(l).unwrap()).collect();
    let out = run_bot(&input);
    assert!(out.status.success(), "{out:?}");
    let lines = lines(&out);
    assert_eq!(lines.len(), 2 * docs.len(), "{lines:?}");
    for (turn, pair) in lines.chunks(2).enumerate() {
        let request = if turn == 0 {
            &docs[0]["requests"][0]
        } else {
            &docs[turn]
        };
        check_answer(&pair[0], turn as i64 + 1, request);
        assert_eq!(pair[1], KEEP_RUNNING_MARKER);
    }
}

#[test]
fn multi_line_input_as_the_wiki_samples_accept() {
    let doc = Value::from_slice(&sample("first-turn.json")).unwrap();
    let pretty = serde_json::to_string_pretty(
        &serde_json::from_str::<serde_json::Value>(&doc.to_string()).unwrap(),
    )
    .unwrap();
    assert!(pretty.lines().count() > 10);
    let out = run_bot(pretty.as_bytes());
    assert!(out.status.success(), "{out:?}");
    check_answer(&lines(&out)[0], 1, &doc["requests"][0]);
}

/// Hostile input ends in a clear message on stderr, the bot's fallback
/// answer (with the keep-running marker, as after any answer: the bot goes
/// on to the next request) and exit code 0, so that the turn is not lost;
/// never a panic.
fn check_rejected(stdin: &[u8], message: &str) {
    let out = run_bot(stdin);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{:?}: {stderr}",
        String::from_utf8_lossy(stdin)
    );
    assert!(
        stderr.contains(message),
        "stderr {stderr:?} lacks {message:?}"
    );
    assert!(stderr.starts_with("bot error: "), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(
        lines(&out),
        vec![
            r#"{"response":{"turn":0}}"#.to_owned(),
            KEEP_RUNNING_MARKER.to_owned()
        ]
    );
}

#[test]
fn hostile_input_is_a_clear_error() {
    check_rejected(b"", "empty input");
    check_rejected(b"\n\n  \n", "empty input");
    let first = sample("first-turn.json");
    check_rejected(&first[..first.len() / 2], "truncated");
    check_rejected("[".repeat(100_000).as_bytes(), "nested deeper than 128");
    check_rejected(
        b"{\"requests\":[\"\xff\xfe\"],\"responses\":[]}",
        "invalid JSON at byte 14: invalid UTF-8",
    );
    check_rejected(
        b"hello",
        "input is not JSON: invalid JSON at byte 0: expected a value, found 'h'",
    );
    check_rejected(
        b"{\"requests\":{}}",
        "input.requests: expected an array, found an object",
    );
    check_rejected(b"{\"responses\":[]}", "input.requests: missing");
    check_rejected(
        b"{\"requests\":[1,2],\"responses\":[{\"turn\":\"x\"}]}",
        "responses[0].turn: expected an integer, found a string",
    );
}

/// A bad request in the middle of keep-running mode costs that turn only:
/// the fallback answer and the marker, then the next request is answered
/// as usual, and the exit code is 0.
#[test]
fn bad_request_in_keep_running_mode_costs_only_its_turn() {
    let good = sample("keep-running.txt");
    let turns = String::from_utf8_lossy(&good).lines().count();
    let mut input = good.clone();
    input.extend_from_slice(b"{\"0\": [1, 2\n");
    input.extend_from_slice(b"{\"after\":1}\n");
    let out = run_bot(&input);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("truncated"), "{stderr}");
    let lines = lines(&out);
    assert_eq!(lines.len(), 2 * (turns + 2), "{lines:?}");
    assert_eq!(lines[2 * turns], r#"{"response":{"turn":0}}"#);
    assert_eq!(lines[2 * turns + 1], KEEP_RUNNING_MARKER);
    check_answer(
        &lines[2 * turns + 2],
        turns as i64 + 1,
        &Value::parse("{\"after\":1}").unwrap(),
    );
    assert_eq!(lines[2 * turns + 3], KEEP_RUNNING_MARKER);
}
