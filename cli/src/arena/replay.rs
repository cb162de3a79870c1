//! `botzone replay LOG`: a game saved by `botzone match`, turn by turn, with
//! each game's ASCII rendering. The game is replayed from the log's
//! `initdata` and the bots' answers, as the judge replays it.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;
use std::time::Duration;

use serde_json::Value;

use botzone::games::enclosure::line_protocol::parse_action;
use botzone::games::enclosure::{Command, State, PLAYERS as ENC_PLAYERS};
use botzone::games::pacman2::{Action as PacAction, Pacman2, PLAYERS as PAC_PLAYERS};
use botzone::games::tank::{self, Field, TankAction};

use super::judges::{answer_of, json_int, pacman2_map, seed_of};
use crate::CliError;

/// One frame: a heading and the board.
struct Frame {
    title: String,
    board: String,
}

fn verdict_note(entry: &Value) -> String {
    let mut notes = String::new();
    if let Some(m) = entry.as_object() {
        for (id, raw) in m {
            if let Some(v) = raw.get("verdict").and_then(Value::as_str) {
                if v != "OK" {
                    let _ = write!(notes, " [player {id}: {v}]");
                }
            }
        }
    }
    notes
}

/// The judge log's entries (empty when the document has none).
fn log_of(doc: &Value) -> &[Value] {
    doc.get("log")
        .and_then(Value::as_array)
        .map_or(&[][..], |v| v)
}

fn bot_entries(log: &[Value]) -> impl Iterator<Item = &Value> {
    log.iter().skip(1).step_by(2)
}

fn pacman2_frames(doc: &Value) -> Result<Vec<Frame>, String> {
    let initdata = doc.get("initdata").cloned().unwrap_or(Value::Null);
    let map = pacman2_map(&initdata, seed_of(&initdata))?;
    let mut game = Pacman2::new(&map);
    let log = log_of(doc);
    let mut frames = vec![Frame {
        title: "start".into(),
        board: game.to_string(),
    }];
    for entry in bot_entries(log) {
        if game.is_over() {
            break;
        }
        let mut joint = [PacAction::STAY; PAC_PLAYERS];
        let mut shown = Vec::new();
        for (p, slot) in joint.iter_mut().enumerate() {
            if !game.is_alive(p) {
                shown.push("-".to_string());
                continue;
            }
            let code = entry
                .get(p.to_string())
                .and_then(answer_of)
                .and_then(|a| a.get("action").and_then(json_int))
                .unwrap_or(-10);
            *slot = PacAction::from_code(code);
            shown.push(code.to_string());
        }
        game.apply(&joint);
        frames.push(Frame {
            title: format!(
                "turn {}: actions {}{}",
                game.turn(),
                shown.join(" "),
                verdict_note(entry)
            ),
            board: game.to_string(),
        });
    }
    Ok(frames)
}

fn tank_frames(doc: &Value) -> Result<Vec<Frame>, String> {
    let initdata = doc.get("initdata").cloned().unwrap_or(Value::Null);
    let mut bricks = [0u32; 3];
    for (i, b) in bricks.iter_mut().enumerate() {
        *b = initdata
            .get("field")
            .and_then(|f| f.get(i))
            .and_then(json_int)
            .ok_or("the log's initdata has no field")? as u32;
    }
    let max_turn = initdata.get("maxTurn").and_then(json_int).unwrap_or(100);
    let mut field =
        Field::with_max_turn(bricks, max_turn.clamp(0, tank::TURN_CAPACITY as i64) as u32);
    let log = log_of(doc);
    let mut frames = vec![Frame {
        title: "start".into(),
        board: field.to_string(),
    }];
    for entry in bot_entries(log) {
        if field.is_over() {
            break;
        }
        let mut joint = [[TankAction::Stay; 2]; 2];
        let mut shown = Vec::new();
        let mut invalid = Vec::new();
        for (side, pair) in joint.iter_mut().enumerate() {
            let codes = entry
                .get(side.to_string())
                .and_then(answer_of)
                .and_then(|a| {
                    let a = a.as_array()?.clone();
                    Some([a.first().and_then(json_int)?, a.get(1).and_then(json_int)?])
                });
            match codes {
                Some(c) => {
                    shown.push(format!("[{}, {}]", c[0], c[1]));
                    for tank in 0..2 {
                        let alive = field.tank_alive(side, tank);
                        match TankAction::from_code(c[tank]) {
                            Some(a) if !alive || field.is_valid(side, tank, a) => {
                                pair[tank] = if alive { a } else { TankAction::Stay }
                            }
                            _ => invalid.push(side),
                        }
                    }
                }
                None => {
                    shown.push("none".into());
                    invalid.push(side);
                }
            }
        }
        if !invalid.is_empty() {
            frames.push(Frame {
                title: format!(
                    "turn {}: actions {} — invalid answer from side {:?}: game over{}",
                    field.turn(),
                    shown.join(" "),
                    invalid,
                    verdict_note(entry)
                ),
                board: field.to_string(),
            });
            break;
        }
        field.apply_unchecked(joint);
        frames.push(Frame {
            title: format!(
                "turn {}: actions {}{}",
                field.turn() - 1,
                shown.join(" "),
                verdict_note(entry)
            ),
            board: field.to_string(),
        });
    }
    Ok(frames)
}

fn enclosure_frames(doc: &Value) -> Result<Vec<Frame>, String> {
    let initdata = doc.get("initdata").cloned().unwrap_or(Value::Null);
    let mut positions = [(-1i32, -1i32); ENC_PLAYERS];
    for (p, pos) in positions.iter_mut().enumerate() {
        let xy = initdata.get("positions").and_then(|v| v.get(p));
        if let (Some(x), Some(y)) = (
            xy.and_then(|v| v.get(0)).and_then(json_int),
            xy.and_then(|v| v.get(1)).and_then(json_int),
        ) {
            *pos = (x as i32, y as i32);
        }
    }
    let mut state = State::new(positions);
    let log = log_of(doc);
    let mut frames = vec![Frame {
        title: "start".into(),
        board: state.to_string(),
    }];
    // The first bot entry holds the [POS] answers.
    for entry in bot_entries(log).skip(1) {
        if state.is_over() {
            break;
        }
        let mut orders: [Option<Command>; ENC_PLAYERS] = [None; ENC_PLAYERS];
        let mut shown = Vec::new();
        for (p, order) in orders.iter_mut().enumerate() {
            let line = entry
                .get(p.to_string())
                .and_then(|r| r.get("response"))
                .and_then(Value::as_str);
            *order = line.and_then(parse_action);
            shown.push(match order {
                Some(c) => c.to_string(),
                None => "-".into(),
            });
        }
        state.step(&orders);
        frames.push(Frame {
            title: format!(
                "turn {}: {}{}",
                state.turn(),
                shown.join(" | "),
                verdict_note(entry)
            ),
            board: state.to_string(),
        });
    }
    Ok(frames)
}

/// What the symbols of a game's replay mean.
fn legend(game: &str) -> &'static str {
    match game {
        "pacman2" => {
            "legend: 0-3 a player, * several players on one cell, G a fruit generator, \
             o a large fruit, . a small fruit, --- and | walls (the field wraps around \
             its edges);\n        actions -1 stay, 0-3 move up/right/down/left, 4-7 shoot \
             up/right/down/left, -10 an invalid answer (death); [player N: V] a verdict \
             other than OK"
        }
        "tank" => {
            "legend: . empty, # brick, % steel, * base (blue's at the top, red's at the \
             bottom), b B blue tanks 0 and 1, r R red tanks 0 and 1, @ several tanks;\n        \
             actions [tank 0, tank 1] of blue then red: -1 stay, 0-3 move up/right/down/left, \
             4-7 shoot up/right/down/left; [player N: V] a verdict other than OK"
        }
        "enclosure" => {
            "legend: vertex rows: 0-3 a player, x a dead player, + a trail, ^ and * traps \
             (counter 1, 2), . a free vertex; cell rows: A-D the land of players 0-3;\n        \
             commands D P: D the direction u/d/l/r or s to stay, P 0 keep the pen, 1 put it \
             down, -1 the skill (drop a trap); - no command; \
             [player N: V] a verdict other than OK"
        }
        _ => "",
    }
}

/// Shows a saved log turn by turn (`delay` seconds between turns, the
/// screen cleared each time; 0 prints them all one after another).
///
/// # Errors
/// When the log cannot be read or is not a game log of `botzone match`.
pub fn run(path: &Path, delay: f64) -> Result<(), CliError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let doc: Value = serde_json::from_str(text.trim())
        .map_err(|e| format!("{}: not JSON: {e}", path.display()))?;
    let game = doc.get("game").and_then(Value::as_str).unwrap_or("");
    let frames = match game {
        "pacman2" => pacman2_frames(&doc)?,
        "tank" => tank_frames(&doc)?,
        "enclosure" => enclosure_frames(&doc)?,
        other => return Err(format!("{}: unknown game {other:?}", path.display()).into()),
    };
    let bots: Vec<String> = doc
        .get("bots")
        .and_then(Value::as_array)
        .map(|b| {
            b.iter()
                .map(|v| v.as_str().unwrap_or("?").to_string())
                .collect()
        })
        .unwrap_or_default();
    let pause = (delay.is_finite() && delay > 0.0).then(|| Duration::from_secs_f64(delay));
    let show = || -> std::io::Result<()> {
        let mut out = std::io::stdout().lock();
        let legend = legend(game);
        if pause.is_none() {
            writeln!(out, "{legend}\n")?;
        }
        for frame in &frames {
            if pause.is_some() {
                write!(out, "\x1b[2J\x1b[H")?;
            }
            writeln!(out, "== {game} {}", frame.title)?;
            writeln!(out, "{}\n", frame.board.trim_end())?;
            if let Some(d) = pause {
                writeln!(out, "{legend}")?;
                out.flush()?;
                std::thread::sleep(d);
            }
        }
        writeln!(out, "players:")?;
        for (seat, bot) in bots.iter().enumerate() {
            let score = doc
                .get("scores")
                .and_then(|s| s.get(seat))
                .and_then(Value::as_f64);
            let verdict = doc
                .get("verdicts")
                .and_then(|s| s.get(seat))
                .and_then(Value::as_str)
                .unwrap_or("?");
            match score {
                Some(s) => writeln!(out, "  {seat}: {s} ({verdict}) {bot}")?,
                None => writeln!(out, "  {seat}: {bot}")?,
            }
        }
        out.flush()
    };
    match show() {
        // The reader went away (`| head`): nothing more to show.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => Ok(other?),
    }
}
