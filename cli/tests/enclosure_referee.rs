//! `botzone referee enclosure` as a program: scripts piped in, the STATUS
//! lines and scores checked against the recorded outputs and against the
//! simulator.

#[path = "../../tests/common/mod.rs"]
mod common;

use botzone::games::enclosure::line_protocol::{parse_action, Status};
use botzone::games::enclosure::{Command, State, PLAYERS};

fn status(st: &State) -> String {
    Status::of(st).to_string()
}

fn run_referee(script: &[u8]) -> String {
    use std::io::Write;
    use std::process::{Command as Proc, Stdio};
    let mut child = Proc::new(common::bin("botzone"))
        .args(["referee", "enclosure"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(script).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap()
}

/// The referee and the simulator agree on a script: the STATUS after every
/// turn, then the scores.
fn simulate_script(script: &str) -> String {
    let mut lines = script.lines();
    let mut positions = [(-1, -1); PLAYERS];
    for p in positions.iter_mut() {
        let (x, y) =
            botzone::games::enclosure::line_protocol::parse_pos(lines.next().unwrap()).unwrap();
        *p = (i32::from(x), i32::from(y));
    }
    let mut st = State::new(positions);
    let mut out = format!("{}\n", status(&st));
    while !st.is_over() {
        let turn: Vec<&str> = lines.by_ref().take(4).collect();
        if turn.is_empty() {
            break;
        }
        let mut orders = [Command::INVALID; PLAYERS];
        for (o, l) in orders.iter_mut().zip(turn.iter()) {
            *o = parse_action(l).unwrap_or(Command::INVALID);
        }
        st.apply_unchecked(&orders);
        out.push_str(&format!("{}\n", status(&st)));
    }
    let s = st.scores_i32();
    out + &format!("[SCORE] {} {} {} {}\n", s[0], s[1], s[2], s[3])
}

#[test]
fn referee_plays_a_selfplay_game() {
    let script = std::fs::read_to_string(common::fixture("enclosure/selfplay.script")).unwrap();
    let expected = std::fs::read_to_string(common::fixture("enclosure/selfplay.out")).unwrap();
    assert_eq!(run_referee(script.as_bytes()), expected);
    assert_eq!(simulate_script(&script), expected);
    assert_eq!(expected.lines().count(), 102);
}

#[test]
fn referee_edge_cases() {
    // A bad POS: dead at (0,0). A short script: SCORE at once.
    let out = run_referee(b"[POS] 1 1\n[POS] 11 0\nnonsense\n[POS] 3 3\n");
    assert_eq!(
        out,
        "[STATUS] 1 1 0 0 0 0 0 -1 0 0 0 0 -1 0 0 3 3 0 0 0 0\n[SCORE] 4 3 2 1\n"
    );
    // A turn cut short: the missing lines are unreadable commands. Dead
    // players' lines are read and ignored.
    let out = run_referee(b"[POS] 1 1\n[POS] 11 0\n[POS] 2 2\n[POS] 3 3\n[ACTION] r 0\nxx\n");
    assert_eq!(
        out,
        "[STATUS] 1 1 0 0 0 0 0 -1 0 0 2 2 0 0 0 3 3 0 0 0 0\n\
         [STATUS] 2 1 0 0 0 0 0 -1 0 0 2 2 -1 0 0 3 3 -1 0 0 0\n\
         [SCORE] 100004 3 2 1\n"
    );
    // Turns after the end are not read.
    let out = run_referee(
        b"[POS] 1 1\n[POS] 11 0\n[POS] 2 2\n[POS] 3 3\nxx\n[ACTION] s 0\nxx\nxx\n[ACTION] s 0\n",
    );
    assert_eq!(out.lines().count(), 3);
    assert!(out.ends_with("[SCORE] 4 3 2 1\n"), "{out}");
}

#[test]
fn referee_plays_the_statement_example() {
    let script = std::fs::read(common::fixture("enclosure/statement-example.script")).unwrap();
    let expected =
        std::fs::read_to_string(common::fixture("enclosure/statement-example.out")).unwrap();
    assert_eq!(run_referee(&script), expected);
    assert!(expected.starts_with("[STATUS] 9 3 0 0 0 1 6 0 0 0 0 3 0 0 0 4 5 0 0 0 0\n"));
    assert!(expected.ends_with("[SCORE] 4 -7 2 1\n"));
}
