//! One Pacman2 or Tank game: a referee (built-in or a judge program) and one
//! bot program per seat, driven through Botzone's judge protocol. The log it
//! builds is Botzone's: judge entries `{"output":…,"verdict":"OK"}` and bot
//! entries `{"0":{"verdict":…,"response":…},…}`.

use serde_json::{Map, Value};

use super::player::{GlobalData, JsonPlayer, Turn};
use super::process::{Limits, Verdict};
use super::referee::Referee;

/// A judge that never finishes is cut off after this many calls.
const MAX_JUDGE_CALLS: usize = 2000;

/// How a game went.
#[derive(Clone, Debug)]
pub struct Played {
    /// Final score per seat.
    pub scores: Vec<f64>,
    /// Per seat: the first non-OK verdict, or OK.
    pub verdicts: Vec<Verdict>,
    /// Rounds of requests.
    pub turns: usize,
    /// The initdata the judge settled on.
    pub initdata: Value,
    /// Botzone's log of the game.
    pub log: Vec<Value>,
}

/// Plays one game. `initdata` is what the judge gets on its first turn
/// (`{"seed":S}`); `commands[seat]` is the bot of each seat and
/// `globaldata[seat]` that bot's `globaldata`. `parallel_seats`: the bots
/// of one turn run at the same time (else one after another, each with the
/// machine to itself).
///
/// # Errors
/// When the referee fails or answers nonsense.
pub fn play(
    referee: &mut dyn Referee,
    commands: &[String],
    globaldata: &[GlobalData],
    limits: Limits,
    initdata: Value,
    parallel_seats: bool,
) -> Result<Played, String> {
    let seed = initdata.get("seed").and_then(Value::as_u64);
    let mut players: Vec<JsonPlayer> = commands
        .iter()
        .enumerate()
        .map(|(seat, c)| {
            JsonPlayer::new(
                c,
                limits,
                seed.map(|s| s * 16 + seat as u64),
                globaldata.get(seat).cloned().unwrap_or_default(),
            )
        })
        .collect();
    let mut verdicts = vec![Verdict::Ok; commands.len()];
    let mut log: Vec<Value> = Vec::new();
    let mut initdata = initdata;
    let mut turns = 0;
    for call in 0..MAX_JUDGE_CALLS {
        let input = serde_json::json!({"log": log, "initdata": initdata});
        let output = referee.respond(&input)?;
        if call == 0 {
            if let Some(init) = output.get("initdata") {
                initdata = init.clone();
            }
        }
        let mut entry = Map::new();
        entry.insert("output".into(), output.clone());
        entry.insert("verdict".into(), Value::from("OK"));
        log.push(Value::Object(entry));
        let content = output
            .get("content")
            .and_then(Value::as_object)
            .ok_or_else(|| format!("judge answered without content: {output}"))?;
        match output.get("command").and_then(Value::as_str) {
            Some("finish") => {
                let mut scores = vec![0.0; commands.len()];
                for (seat, score) in scores.iter_mut().enumerate() {
                    *score = content
                        .get(&seat.to_string())
                        .and_then(Value::as_f64)
                        .ok_or_else(|| {
                            format!("judge gave no score for player {seat}: {output}")
                        })?;
                }
                for p in &mut players {
                    p.finish();
                }
                return Ok(Played {
                    scores,
                    verdicts,
                    turns,
                    initdata,
                    log,
                });
            }
            Some("request") => {
                turns += 1;
                let mut answers = Map::new();
                let mut seats: Vec<(usize, &Value)> = Vec::new();
                for (key, request) in content {
                    let seat: usize = key
                        .parse()
                        .ok()
                        .filter(|&s| s < commands.len())
                        .ok_or_else(|| format!("judge addressed unknown player {key:?}"))?;
                    seats.push((seat, request));
                }
                seats.sort_by_key(|&(s, _)| s);
                let turns: Vec<(usize, Turn)> = if parallel_seats {
                    let wanted: Vec<Option<&Value>> = (0..players.len())
                        .map(|s| seats.iter().find(|&&(seat, _)| seat == s).map(|&(_, r)| r))
                        .collect();
                    std::thread::scope(|scope| {
                        let handles: Vec<_> = players
                            .iter_mut()
                            .zip(wanted)
                            .enumerate()
                            .filter_map(|(seat, (player, request))| {
                                let request = request?.clone();
                                Some((seat, scope.spawn(move || player.play(request))))
                            })
                            .collect();
                        handles
                            .into_iter()
                            .map(|(seat, h)| (seat, h.join().expect("a seat's thread panicked")))
                            .collect()
                    })
                } else {
                    seats
                        .into_iter()
                        .map(|(seat, request)| (seat, players[seat].play(request.clone())))
                        .collect()
                };
                for (seat, turn) in turns {
                    if turn.verdict != Verdict::Ok && verdicts[seat] == Verdict::Ok {
                        verdicts[seat] = turn.verdict;
                    }
                    answers.insert(seat.to_string(), turn.log_entry());
                }
                log.push(Value::Object(answers));
            }
            other => return Err(format!("judge answered command {other:?}: {output}")),
        }
    }
    Err(format!(
        "the judge did not finish the game in {MAX_JUDGE_CALLS} calls"
    ))
}
