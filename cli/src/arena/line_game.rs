//! A game on a line protocol ([`LineGame`]): one process per player for
//! the whole game. The arena is the referee: the start message and its
//! answer, then every turn one status line to each live player in seat
//! order and one action line back, within the time limit (the start answer
//! gets twice the limit). A bot that crashes, times out, floods its output
//! or answers something unreadable is out of the game. Between its turns a
//! bot is stopped (SIGSTOP), so that it cannot take CPU time from the
//! player whose turn it is.
//!
//! A seat whose command is `@random` is played by the arena itself: a
//! random start, then uniformly random legal actions (the simulator's).
//!
//! The log has Botzone's shape: judge entries whose `content` holds the
//! status each player got, bot entries whose `response` is the line each
//! player answered.

use std::time::Instant;

use serde_json::{json, Map, Value};

use botzone::games::line::LineGame;
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
        ReadOutcome::Eof(_) => match p.wait_until(Instant::now() + limits.time) {
            Some(e) if p.looks_out_of_memory(&e, limits.memory) => Verdict::Mle,
            _ => Verdict::Re,
        },
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

/// Plays one game of `G` between `commands` (seat order).
///
/// # Errors
/// Never: a bot that cannot even be started just dies (RE).
pub fn play<G: LineGame>(commands: &[String], limits: Limits, seed: u64) -> Result<Played, String> {
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
    for p in 0..G::SEATS {
        content.insert(p.to_string(), json!(G::start_message(p)));
    }
    log.push(judge_entry("request", content, json!({})));
    let mut starts = vec![None; G::SEATS];
    let mut answers = Map::new();
    for (p, seat) in seats.iter_mut().enumerate() {
        if let Some(rng) = seat.random.as_mut() {
            let start = G::random_start(rng);
            starts[p] = Some(start);
            answers.insert(
                p.to_string(),
                json!({"verdict": "OK", "response": G::start_line(start)}),
            );
            continue;
        }
        let (line, mut entry) = exchange(seat, &G::start_message(p), &limits, true);
        if let Some(line) = line {
            match G::read_start(&line) {
                Some(start) => starts[p] = Some(start),
                None => reject(seat, &mut entry),
            }
        }
        answers.insert(p.to_string(), entry);
    }
    log.push(Value::Object(answers));
    let setup = G::setup_from_starts(&starts);
    let mut game = G::start(&setup);
    let mut initdata = crate::json::from_core(&G::initdata(&setup));
    initdata["seed"] = json!(seed);
    let mut legal = G::Actions::default();
    let mut turns = 0;
    while !game.is_over() {
        turns += 1;
        let status = game.status();
        let mut content = Map::new();
        let mut answers = Map::new();
        let mut joint = vec![G::UNREADABLE; G::SEATS];
        for (p, seat) in seats.iter_mut().enumerate() {
            if !game.is_active(p) {
                continue;
            }
            content.insert(p.to_string(), json!(status));
            if let Some(rng) = seat.random.as_mut() {
                game.legal_actions(p, &mut legal);
                let action = legal[rng.index(legal.len())];
                joint[p] = action;
                answers.insert(
                    p.to_string(),
                    json!({"verdict": "OK", "response": G::action_line(action)}),
                );
                continue;
            }
            let (line, mut entry) = exchange(seat, &status, &limits, false);
            if let Some(line) = line {
                match G::read_action(&line) {
                    Some(action) => joint[p] = action,
                    None => reject(seat, &mut entry),
                }
            }
            answers.insert(p.to_string(), entry);
        }
        log.push(judge_entry("request", content, json!({"status": status})));
        log.push(Value::Object(answers));
        game.apply_unchecked(&joint);
        // A bot the rules put out of the game gets no more input: end its
        // process.
        for (p, seat) in seats.iter_mut().enumerate() {
            if !game.is_active(p) {
                if let Some(mut proc) = seat.process.take() {
                    proc.kill();
                }
            }
        }
    }
    let mut scores = vec![0.0; G::SEATS];
    game.scores(&mut scores);
    let mut content = Map::new();
    for (p, s) in scores.iter().enumerate() {
        content.insert(p.to_string(), json!(s));
    }
    log.push(judge_entry(
        "finish",
        content,
        json!({"status": game.status()}),
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
