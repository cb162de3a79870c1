//! Enclosure (NOI 2013) over its line protocol: one process per player for
//! the whole game. The arena is the judge: `[START] m` and a `[POS] x y`
//! answer, then every turn one `[STATUS] …` line to each live player in
//! order 0..3 and one `[ACTION] D P` answer, within the time limit (the
//! `[POS]` answer gets twice the limit). A bot that crashes, times out,
//! floods its output or answers something unreadable dies. Between its
//! turns a bot is stopped (SIGSTOP), so that it cannot take CPU time from
//! the player whose turn it is.
//!
//! A seat whose command is `@random` is played by the arena itself: a
//! random start vertex, then uniformly random commands among those that do
//! not kill the player by themselves (the simulator's legal commands).
//!
//! The log has Botzone's shape: judge entries whose `content` holds the
//! STATUS each player got, bot entries whose `response` is the line each
//! player answered.

use std::time::Instant;

use serde_json::{json, Map, Value};

use botzone::games::enclosure::line_protocol::{action_line, parse_action, parse_pos, Status};
use botzone::games::enclosure::{Command, State, PLAYERS};
use botzone::rng::Rng;

/// The command of a seat the arena plays itself, at random.
pub const RANDOM_PLAYER: &str = "@random";

use super::botzone_game::Played;
use super::process::{BotProcess, Limits, ReadOutcome, Verdict, Want};

/// One player's process and verdict.
struct Seat {
    process: Option<BotProcess>,
    verdict: Verdict,
    random: Option<Rng>,
}

/// Sends `line` and reads one answer line; on failure the process is killed
/// and the verdict recorded.
fn exchange(
    seat: &mut Seat,
    line: &str,
    limits: &Limits,
    doubled: bool,
) -> (Option<String>, Value) {
    let Some(p) = seat.process.as_mut() else {
        return (None, json!({"verdict": seat.verdict.as_str()}));
    };
    p.resume();
    p.send(line);
    p.send("\n");
    let start = Instant::now();
    let limit = if doubled {
        limits.time * 2
    } else {
        limits.time
    };
    let outcome = p.read(Want::Line, start + limit, limits.output);
    let ms = start.elapsed().as_millis() as u64;
    let verdict = match outcome {
        ReadOutcome::Answer { text, .. } => {
            p.pause();
            return (
                Some(text.clone()),
                json!({"verdict": "OK", "response": text, "time": ms}),
            );
        }
        ReadOutcome::Timeout => Verdict::Tle,
        ReadOutcome::Overflow => Verdict::Ole,
        ReadOutcome::Eof(_) => {
            let exit = p.wait_until(Instant::now() + limits.time);
            match exit {
                Some(e) if p.looks_out_of_memory(&e, limits.memory) => Verdict::Mle,
                _ => Verdict::Re,
            }
        }
    };
    if let Some(mut p) = seat.process.take() {
        p.kill();
    }
    if seat.verdict == Verdict::Ok {
        seat.verdict = verdict;
    }
    (None, json!({"verdict": verdict.as_str(), "time": ms}))
}

/// Records a readable-but-wrong answer (NJ): the player dies; its process
/// is ended.
fn reject(seat: &mut Seat, entry: &mut Value) {
    if let Some(mut p) = seat.process.take() {
        p.kill();
    }
    if seat.verdict == Verdict::Ok {
        seat.verdict = Verdict::Nj;
    }
    entry["verdict"] = json!("NJ");
}

fn judge_entry(command: &str, content: Map<String, Value>, display: Value) -> Value {
    json!({"output": {"command": command, "content": content, "display": display}, "verdict": "OK"})
}

/// Plays one Enclosure game between `commands` (seat order).
///
/// # Errors
/// Never: a bot that cannot even be started just dies (RE).
pub fn play(commands: &[String], limits: Limits, seed: u64) -> Result<Played, String> {
    let mut seats: Vec<Seat> = commands
        .iter()
        .enumerate()
        .map(|(p, c)| {
            let seat_seed = seed * 16 + p as u64;
            if c.trim() == RANDOM_PLAYER {
                Seat {
                    process: None,
                    verdict: Verdict::Ok,
                    random: Some(Rng::new(seat_seed)),
                }
            } else {
                let process = BotProcess::spawn_seeded(c, &limits, Some(seat_seed)).ok();
                Seat {
                    verdict: if process.is_some() {
                        Verdict::Ok
                    } else {
                        Verdict::Re
                    },
                    process,
                    random: None,
                }
            }
        })
        .collect();
    let mut log = Vec::new();
    let mut content = Map::new();
    for p in 0..PLAYERS {
        content.insert(p.to_string(), json!(format!("[START] {p}")));
    }
    log.push(judge_entry("request", content, json!({})));
    let mut positions = [(-1i32, -1i32); PLAYERS];
    let mut answers = Map::new();
    for (p, seat) in seats.iter_mut().enumerate() {
        if let Some(rng) = seat.random.as_mut() {
            let (x, y) = (rng.below(11) as i32, rng.below(11) as i32);
            positions[p] = (x, y);
            answers.insert(
                p.to_string(),
                json!({"verdict": "OK", "response": format!("[POS] {x} {y}")}),
            );
            continue;
        }
        let (line, mut entry) = exchange(seat, &format!("[START] {p}"), &limits, true);
        if let Some(line) = line {
            match parse_pos(&line) {
                Some((x, y)) => positions[p] = (i32::from(x), i32::from(y)),
                None => reject(seat, &mut entry),
            }
        }
        answers.insert(p.to_string(), entry);
    }
    log.push(Value::Object(answers));
    let mut state = State::new(positions);
    let initdata = json!({"seed": seed, "positions": positions});
    let mut turns = 0;
    while !state.is_over() {
        turns += 1;
        let status = Status::of(&state).to_string();
        let mut content = Map::new();
        let mut answers = Map::new();
        let mut orders: [Option<Command>; PLAYERS] = [None; PLAYERS];
        for (p, seat) in seats.iter_mut().enumerate() {
            if !state.player(p).is_alive() {
                continue;
            }
            content.insert(p.to_string(), json!(status));
            if let Some(rng) = seat.random.as_mut() {
                let c = state.random_command(p, rng);
                orders[p] = Some(c);
                answers.insert(
                    p.to_string(),
                    json!({"verdict": "OK", "response": action_line(c)}),
                );
                continue;
            }
            let (line, mut entry) = exchange(seat, &status, &limits, false);
            if let Some(line) = line {
                match parse_action(&line) {
                    Some(c) => orders[p] = Some(c),
                    None => reject(seat, &mut entry),
                }
            }
            answers.insert(p.to_string(), entry);
        }
        log.push(judge_entry("request", content, json!({"status": status})));
        log.push(Value::Object(answers));
        state.step(&orders);
        // A bot killed by the rules gets no more input: end its process.
        for (p, seat) in seats.iter_mut().enumerate() {
            if !state.player(p).is_alive() {
                if let Some(mut proc) = seat.process.take() {
                    proc.kill();
                }
            }
        }
    }
    let scores: Vec<f64> = state.scores_i32().iter().map(|&s| f64::from(s)).collect();
    let mut content = Map::new();
    for (p, s) in scores.iter().enumerate() {
        content.insert(p.to_string(), json!(s));
    }
    log.push(judge_entry(
        "finish",
        content,
        json!({"status": Status::of(&state).to_string()}),
    ));
    for seat in &mut seats {
        if let Some(mut p) = seat.process.take() {
            p.kill();
        }
    }
    Ok(Played {
        scores,
        verdicts: seats.iter().map(|s| s.verdict).collect(),
        turns,
        initdata,
        log,
    })
}
