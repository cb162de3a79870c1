//! `botzone replay LOG`: a game saved by `botzone match`, turn by turn, with
//! the game's ASCII rendering. A Botzone game is replayed by its judge
//! from the log's `initdata` and the bots' answers, as Botzone replays it;
//! a line-protocol game by its referee.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;
use std::time::Duration;

use botzone::games::botzone::{BotzoneGame, Referee};
use botzone::games::line::LineGame;
use botzone::games::registry::{GameKind, Visitor};
use botzone::games::Rules;
use serde_json::Value;

use crate::json::to_core;
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
pub(crate) fn log_of(doc: &Value) -> &[Value] {
    doc.get("log")
        .and_then(Value::as_array)
        .map_or(&[][..], |v| v)
}

pub(crate) fn bot_entries(log: &[Value]) -> impl Iterator<Item = &Value> {
    log.iter().skip(1).step_by(2)
}

/// The frames of a saved game.
struct Frames<'a>(&'a Value);

impl Visitor for Frames<'_> {
    type Output = Result<Vec<Frame>, String>;

    /// The judge replays the bots' answers turn by turn.
    fn botzone<G: BotzoneGame>(self) -> Self::Output {
        let doc = self.0;
        let initdata = to_core(doc.get("initdata").unwrap_or(&Value::Null));
        let mut referee = Referee::<G>::from_initdata(&initdata).map_err(|e| e.to_string())?;
        let mut frames = vec![start_frame(referee.game())];
        for entry in bot_entries(log_of(doc)) {
            if referee.is_finished() || referee.game().is_over() {
                break;
            }
            let turn = referee.game().turn() + 1;
            let judged = referee.judge(&to_core(entry), true);
            frames.push(Frame {
                title: format!("turn {turn}: {}{}", judged.summary, verdict_note(entry)),
                board: referee.game().to_string(),
            });
        }
        Ok(frames)
    }

    /// The referee plays the answers; the first bot entry holds the starts,
    /// which the log's `initdata` keeps.
    fn line<G: LineGame>(self) -> Self::Output {
        let doc = self.0;
        let initdata = to_core(doc.get("initdata").unwrap_or(&Value::Null));
        let mut game = G::start(&G::setup_from_initdata(&initdata));
        let mut frames = vec![start_frame(&game)];
        let mut joint = vec![G::UNREADABLE; G::SEATS];
        for entry in bot_entries(log_of(doc)).skip(1) {
            if game.is_over() {
                break;
            }
            let mut shown = Vec::new();
            for (p, action) in joint.iter_mut().enumerate() {
                let line = entry
                    .get(p.to_string())
                    .and_then(|r| r.get("response"))
                    .and_then(Value::as_str);
                let read = line.and_then(G::read_action);
                *action = read.unwrap_or(G::UNREADABLE);
                shown.push(read.map_or_else(|| "-".to_string(), G::action_text));
            }
            game.apply_unchecked(&joint);
            frames.push(Frame {
                title: format!(
                    "turn {}: {}{}",
                    game.turn(),
                    shown.join(" | "),
                    verdict_note(entry)
                ),
                board: game.to_string(),
            });
        }
        Ok(frames)
    }
}

fn start_frame<G: Rules>(game: &G) -> Frame {
    Frame {
        title: "start".into(),
        board: game.to_string(),
    }
}

/// What the symbols of a game's replay mean.
struct Legend;

impl Legend {
    fn of<G: Rules>() -> String {
        format!(
            "legend: {}; [player N: V] a verdict other than OK",
            G::LEGEND.replace('\n', "\n        ")
        )
    }
}

impl Visitor for Legend {
    type Output = String;
    fn botzone<G: BotzoneGame>(self) -> String {
        Legend::of::<G>()
    }
    fn line<G: LineGame>(self) -> String {
        Legend::of::<G>()
    }
}

/// Shows a saved log (of `game` when it names none) turn by turn (`delay` seconds between turns, the
/// screen cleared each time; 0 prints them all one after another).
///
/// # Errors
/// When the log cannot be read or is not a game log of `botzone match`.
pub fn run(path: &Path, delay: f64, game: Option<GameKind>) -> Result<(), CliError> {
    let doc = crate::html::replay::read_log(path)?;
    let kind = crate::html::replay::game_of(&doc, game, path)?;
    let frames = kind.visit(Frames(&doc))?;
    let game = kind.name();
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
        let legend = kind.visit(Legend);
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
