//! The `enclosure_mc` binary as a program: a scripted exchange, and whole
//! games of four copies judged by the simulator (no command that kills
//! itself, predictions that match every STATUS, only protocol lines on
//! stdout).

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command as Proc, Stdio};

use botzone::games::enclosure::line_protocol::{parse_action, parse_pos, Status};
use botzone::games::enclosure::{PenState, State, PLAYERS};

struct Bot {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
}

impl Bot {
    fn spawn(seed: u64) -> Bot {
        let mut child = Proc::new(env!("CARGO_BIN_EXE_enclosure_mc"))
            .env("BOTZONE_TIME_LIMIT", "0.02")
            .env("BOTZONE_SEED", seed.to_string())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("enclosure_mc runs");
        let stdin = child.stdin.take();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Bot {
            child,
            stdin,
            stdout,
        }
    }

    fn send(&mut self, text: &str) {
        let w = self.stdin.as_mut().unwrap();
        w.write_all(text.as_bytes()).unwrap();
        w.flush().unwrap();
    }

    fn line(&mut self) -> String {
        let mut s = String::new();
        self.stdout.read_line(&mut s).unwrap();
        assert!(s.ends_with('\n'), "a whole line, got {s:?}");
        s.trim_end().to_string()
    }

    /// Closes stdin; returns (rest of stdout, stderr) once the bot exits 0.
    fn finish(mut self) -> (String, String) {
        drop(self.stdin.take());
        let mut rest = String::new();
        self.stdout.read_to_string(&mut rest).unwrap();
        let mut err = String::new();
        self.child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut err)
            .unwrap();
        let status = self.child.wait().unwrap();
        assert!(status.success(), "exit status {status:?}\n{err}");
        (rest, err)
    }
}

#[test]
fn scripted_exchange() {
    let mut bot = Bot::spawn(1);
    bot.send("[START] 2\n");
    let pos = bot.line();
    let (x, y) = parse_pos(&pos).unwrap_or_else(|| panic!("bad POS line {pos:?}"));
    let mut positions = [(9, 3), (1, 6), (0, 3), (4, 5)];
    positions[2] = (i32::from(x), i32::from(y));
    let mut st = State::new(positions);
    for _ in 0..3 {
        // The STATUS spread over three lines: tokens, not lines, count.
        let status = Status::of(&st).to_string();
        let (head, tail) = status.split_at(status.len() / 2);
        bot.send(&format!("{head}\n{}\n", tail.replacen(' ', "\n", 1)));
        let line = bot.line();
        let cmd = parse_action(&line).unwrap_or_else(|| panic!("bad ACTION line {line:?}"));
        assert!(!st.kills_itself(2, cmd), "{cmd} kills itself\n{st}");
        let mut orders = [botzone::games::enclosure::Command::STAY; PLAYERS];
        orders[2] = cmd;
        st.try_apply(&orders).unwrap();
    }
    let (rest, err) = bot.finish();
    assert_eq!(rest, "", "nothing but protocol lines on stdout");
    assert!(!err.contains("differs"), "{err}");
}

#[test]
fn bad_status_gets_a_harmless_answer() {
    let mut bot = Bot::spawn(2);
    bot.send("[START] 0\n");
    let _ = bot.line();
    bot.send("[STATUS] 1 2 3\n");
    assert_eq!(bot.line(), "[ACTION] s 0");
    let (rest, err) = bot.finish();
    assert_eq!(rest, "");
    assert!(
        err.contains("bad input") || err.contains("input ended"),
        "{err}"
    );
}

/// Judges one game of four bots; returns the final state.
fn judged_game(seed: u64) -> State {
    let mut bots: Vec<Bot> = (0..PLAYERS as u64)
        .map(|p| Bot::spawn(seed * 4 + p))
        .collect();
    let mut positions = [(0i32, 0i32); PLAYERS];
    for (m, bot) in bots.iter_mut().enumerate() {
        bot.send(&format!("[START] {m}\n"));
        let line = bot.line();
        let (x, y) = parse_pos(&line).unwrap_or_else(|| panic!("bad POS line {line:?}"));
        positions[m] = (i32::from(x), i32::from(y));
    }
    let mut st = State::new(positions);
    while !st.is_over() {
        let status = format!("{}\n", Status::of(&st));
        let mut orders = [botzone::games::enclosure::Command::INVALID; PLAYERS];
        for (p, bot) in bots.iter_mut().enumerate() {
            if st.player(p).state() == PenState::Dead {
                continue;
            }
            bot.send(&status);
            let line = bot.line();
            let cmd = parse_action(&line).unwrap_or_else(|| panic!("bad ACTION line {line:?}"));
            assert!(
                !st.kills_itself(p, cmd),
                "player {p}: {cmd} kills itself\n{st}"
            );
            orders[p] = cmd;
        }
        st.apply_unchecked(&orders);
    }
    for bot in bots {
        let (rest, err) = bot.finish();
        assert_eq!(rest, "");
        assert!(!err.contains("differs"), "{err}");
    }
    st
}

#[test]
fn four_bots_play_whole_games() {
    let mut land = 0;
    for seed in 0..2 {
        let st = judged_game(seed);
        assert!(st.is_over());
        land += 100 - st.unowned();
    }
    assert!(land > 0, "the bots capture something");
}
