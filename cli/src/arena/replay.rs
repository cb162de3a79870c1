//! `botzone replay LOG`: a game saved by `botzone match`, turn by turn, with
//! the game's ASCII rendering. A Botzone game is replayed by its judge
//! from the log's `initdata` and the bots' answers, as Botzone replays it;
//! a line-protocol game by its referee.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;
use std::time::Duration;

use botzone::games::botzone::{answer_of, BotzoneGame, Referee};
use botzone::games::line::LineGame;
use botzone::games::registry::{GameKind, Visitor};
use botzone::games::{Game, Rules};
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

/// One turn of a saved game, as its judge or referee replayed it.
pub(crate) struct Turn<'a, G: Game> {
    /// The game before the turn.
    pub before: &'a G,
    /// The actions played, one per seat (`None`: the judge refused the
    /// answers and ended the game without playing the turn).
    pub joint: Option<&'a [G::Action]>,
    /// The game after the turn.
    pub after: &'a G,
    /// The log's bot entry of the turn.
    pub entry: &'a Value,
    /// The answers as the game read them, on one line.
    pub summary: String,
}

/// Replays a Botzone game's log as Botzone does: its judge from the log's
/// `initdata` and the bots' answers. Calls `each` for every turn; returns
/// the start.
///
/// # Errors
/// When `initdata` holds a setup the judge cannot play.
pub(crate) fn replay_botzone<G: BotzoneGame>(
    doc: &Value,
    mut each: impl FnMut(Turn<'_, G>),
) -> Result<G, String> {
    let initdata = to_core(doc.get("initdata").unwrap_or(&Value::Null));
    let mut referee = Referee::<G>::from_initdata(&initdata).map_err(|e| e.to_string())?;
    let start = referee.game().clone();
    for entry in bot_entries(log_of(doc)) {
        if referee.is_finished() || referee.game().is_over() {
            break;
        }
        let before = referee.game().clone();
        let answers = to_core(entry);
        let joint: Vec<G::Action> = (0..G::SEATS)
            .map(|p| {
                answers
                    .get(&p.to_string())
                    .and_then(answer_of)
                    .and_then(|a| before.read_answer(p, &a))
                    .unwrap_or_default()
            })
            .collect();
        let judged = referee.judge(&answers, true);
        let after = referee.game();
        let played = after.turn() == before.turn() + 1;
        each(Turn {
            before: &before,
            joint: played.then_some(&joint[..]),
            after,
            entry,
            summary: judged.summary,
        });
    }
    Ok(start)
}

/// Replays a line-protocol game's log with its referee (the first bot
/// entry holds the starts, which the log's `initdata` keeps). Calls `each`
/// for every turn; returns the start.
pub(crate) fn replay_line<G: LineGame>(doc: &Value, mut each: impl FnMut(Turn<'_, G>)) -> G {
    let initdata = to_core(doc.get("initdata").unwrap_or(&Value::Null));
    let start = G::start(&G::setup_from_initdata(&initdata));
    let mut game = start.clone();
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
        let before = game.clone();
        game.apply_unchecked(&joint);
        each(Turn {
            before: &before,
            joint: Some(&joint),
            after: &game,
            entry,
            summary: shown.join(" | "),
        });
    }
    start
}

/// The frames of a saved game.
struct Frames<'a>(&'a Value);

impl Frames<'_> {
    fn of<G: Rules>(start: &G, mut turns: Vec<Frame>) -> Vec<Frame> {
        turns.insert(0, start_frame(start));
        turns
    }
}

/// The frame of a turn.
fn turn_frame<G: Rules>(t: Turn<'_, G>) -> Frame {
    Frame {
        title: format!(
            "turn {}: {}{}",
            t.before.turn() + 1,
            t.summary,
            verdict_note(t.entry)
        ),
        board: t.after.to_string(),
    }
}

impl Visitor for Frames<'_> {
    type Output = Result<Vec<Frame>, String>;

    fn botzone<G: BotzoneGame>(self) -> Self::Output {
        let mut turns = Vec::new();
        let start = replay_botzone::<G>(self.0, |t| turns.push(turn_frame(t)))?;
        Ok(Frames::of(&start, turns))
    }

    fn line<G: LineGame>(self) -> Self::Output {
        let mut turns = Vec::new();
        let start = replay_line::<G>(self.0, |t| turns.push(turn_frame(t)));
        Ok(Frames::of(&start, turns))
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
