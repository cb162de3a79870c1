//! How often each bot of a Pacman2 arena run fired at a player who could
//! step out of the beam's path (with nobody trapped in any of its lines),
//! as `TypeModel` counts it: the rate the bot `pacman_mc` learns per
//! player during a game (`TypeModel::dodge_rate`), here over whole runs.
//!
//! ```text
//! cargo run --release --example pacman_shot_rates -- RESULTS.jsonl...
//! ```
//!
//! Each `RESULTS.jsonl` is `botzone match pacman2 --out`'s file, its game
//! logs where it names them.
use std::collections::BTreeMap;
use std::path::Path;

use botzone::games::pacman2::policy::TypeModel;
use botzone::games::pacman2::protocol::Tracker;
use botzone::games::pacman2::PLAYERS;
use botzone::json::Value;

/// The chances and the shots of one game, per seat, from its arena log.
fn counts(log: &Value) -> Result<[(u32, u32); PLAYERS], String> {
    let items = log
        .get("log")
        .and_then(Value::as_array)
        .ok_or("no \"log\" array")?;
    let mut tracker: Option<Tracker> = None;
    let mut model = TypeModel::new(0.5);
    for item in items.iter().step_by(2) {
        let Some(out) = item.get("output") else { break };
        if out.get("command").and_then(Value::as_str) != Some("request") {
            break;
        }
        // Every live player gets the same turn; the first request is a map.
        let Some((_, request)) = out
            .get("content")
            .and_then(Value::as_object)
            .and_then(|c| c.iter().next())
        else {
            break;
        };
        match tracker.as_mut() {
            None => tracker = Some(Tracker::start(request, "request").map_err(|e| e.to_string())?),
            Some(t) => {
                if t.game().is_over() {
                    break;
                }
                let turn = t
                    .game()
                    .read_request(request, "request")
                    .map_err(|e| e.to_string())?;
                model.observe(t.game(), &turn.joint);
                t.follow(request, "request").map_err(|e| e.to_string())?;
            }
        }
    }
    Ok(std::array::from_fn(|p| model.dodge_counts(p)))
}

fn main() -> Result<(), String> {
    let runs: Vec<String> = std::env::args().skip(1).collect();
    if runs.is_empty() {
        return Err("usage: pacman_shot_rates RESULTS.jsonl...".into());
    }
    let mut by_bot: BTreeMap<String, (u32, u32)> = BTreeMap::new();
    for results in &runs {
        let dir = Path::new(results).parent().unwrap_or(Path::new("."));
        let text = std::fs::read_to_string(results).map_err(|e| format!("{results}: {e}"))?;
        for (n, line) in text.lines().enumerate() {
            let at = |e: String| format!("{results}:{}: {e}", n + 1);
            let game = Value::parse(line).map_err(|e| at(e.to_string()))?;
            let names = |key: &str| -> Result<Vec<Value>, String> {
                Ok(game
                    .get(key)
                    .and_then(Value::as_array)
                    .ok_or_else(|| at(format!("no {key:?} array")))?
                    .to_vec())
            };
            let (bots, seats) = (names("bots")?, names("seats")?);
            let log = game
                .get("log")
                .and_then(Value::as_str)
                .ok_or_else(|| at("no \"log\"".into()))?;
            let log_text =
                std::fs::read_to_string(dir.join(log)).map_err(|e| at(format!("{log}: {e}")))?;
            let log = Value::parse(&log_text).map_err(|e| at(format!("{log}: {e}")))?;
            for (seat, (chances, shots)) in counts(&log).map_err(at)?.into_iter().enumerate() {
                let bot = seats
                    .get(seat)
                    .and_then(Value::as_i64)
                    .and_then(|b| bots.get(usize::try_from(b).ok()?))
                    .and_then(Value::as_str)
                    .ok_or_else(|| at(format!("no bot for seat {seat}")))?;
                let entry = by_bot.entry(bot.to_string()).or_default();
                (entry.0, entry.1) = (entry.0 + chances, entry.1 + shots);
            }
        }
    }
    println!("{:>8} {:>6} {:>5}  bot", "chances", "shots", "rate");
    for (bot, (chances, shots)) in &by_bot {
        let rate = f64::from(*shots) / f64::from((*chances).max(1));
        println!("{chances:>8} {shots:>6} {rate:>5.2}  {bot}");
    }
    Ok(())
}
