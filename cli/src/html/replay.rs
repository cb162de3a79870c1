//! `botzone replay LOG --html`: one self-contained page that plays a saved
//! game turn by turn. A Botzone game is replayed by its judge from the
//! log's `initdata` and the bots' answers; a line-protocol game by its
//! referee. Every frame is the simulator's state after that turn, as the
//! game's [`Render`] puts it.

use std::path::{Path, PathBuf};

use botzone::games::botzone::BotzoneGame;
use botzone::games::line::LineGame;
use botzone::games::registry::{GameKind, RenderVisitor};
use botzone::games::render::Render;
use serde_json::{json, Value};

use super::{escape, page, script_json};
use botzone::games::Rules;

use crate::arena::replay::{bot_entries, log_of, replay_botzone, replay_line, Turn};
use crate::json::from_core;
use crate::CliError;

const PLAYER: &str = include_str!("player.js");
const SVG: &str = include_str!("svg.js");

/// What a game's renderer made of a log.
struct Built {
    setup: Value,
    frames: Vec<Value>,
    script: &'static str,
    measure: &'static str,
}

/// Each seat's verdict in a bot entry of the log (`""` when none).
fn verdicts(entry: &Value, seats: usize) -> Value {
    (0..seats)
        .map(|p| {
            entry
                .get(p.to_string())
                .and_then(|e| e.get("verdict"))
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string()
        })
        .collect()
}

/// A renderer's frame with what the log adds: verdicts and a note.
fn frame(core: &botzone::json::Value, verdict: Value, note: &str) -> Value {
    let mut f = from_core(core);
    if let Some(m) = f.as_object_mut() {
        m.insert("verdict".into(), verdict);
        m.insert("note".into(), Value::from(note));
    }
    f
}

/// The frames of a saved game.
struct Frames<'a>(&'a Value);

impl Frames<'_> {
    fn built<G: Rules + Render>(start: &G, first: Value, turns: Vec<Value>) -> Built {
        let mut frames = vec![frame(&start.frame_json(None), first, "start")];
        frames.extend(turns);
        Built {
            setup: from_core(&start.setup_json()),
            frames,
            script: G::SCRIPT,
            measure: G::MEASURE,
        }
    }
}

/// A turn's frame: the state after it, with what happened in it.
fn turn_frame<G: Render>(t: Turn<'_, G>) -> Value {
    let last = t.joint.map(|joint| (t.before, joint));
    frame(
        &t.after.frame_json(last),
        verdicts(t.entry, t.before.player_count()),
        &t.summary,
    )
}

impl RenderVisitor for Frames<'_> {
    type Output = Result<Built, String>;

    fn botzone<G: BotzoneGame + Render>(self) -> Self::Output {
        let mut turns = Vec::new();
        let start = replay_botzone::<G>(self.0, |t| turns.push(turn_frame(t)))?;
        let none = Value::Array(vec![Value::from(""); G::SEATS]);
        Ok(Frames::built(&start, none, turns))
    }

    fn line<G: LineGame + Render>(self) -> Self::Output {
        let mut turns = Vec::new();
        let start = replay_line::<G>(self.0, |t| turns.push(turn_frame(t)));
        // The starts' verdicts (the first bot entry).
        let first = bot_entries(log_of(self.0)).next().map_or_else(
            || Value::Array(vec![Value::from(""); G::SEATS]),
            |e| verdicts(e, G::SEATS),
        );
        Ok(Frames::built(&start, first, turns))
    }
}

/// The game a log is of: its `game` field, else `game` (for a log
/// downloaded from Botzone, which names no game).
pub fn game_of(doc: &Value, game: Option<GameKind>, path: &Path) -> Result<GameKind, CliError> {
    match (doc.get("game").and_then(Value::as_str), game) {
        (Some(name), _) => Ok(name
            .parse()
            .map_err(|e| format!("{}: {e}", path.display()))?),
        (None, Some(kind)) => Ok(kind),
        (None, None) => Err(format!(
            "{}: the log names no game (a log downloaded from Botzone): say which with --game",
            path.display()
        )
        .into()),
    }
}

/// Reads a log file (one JSON document).
pub fn read_log(path: &Path) -> Result<Value, CliError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let doc: Value = serde_json::from_str(text.trim())
        .map_err(|e| format!("{}: not JSON: {e}", path.display()))?;
    if doc.get("log").and_then(Value::as_array).is_none() {
        return Err(format!("{}: no `log` array: not a game log", path.display()).into());
    }
    Ok(doc)
}

/// The replay page of the game log `doc` (of `kind`), titled `title`.
///
/// # Errors
/// When the log's `initdata` holds a setup the game cannot play.
pub fn replay_page(doc: &Value, kind: GameKind, title: &str) -> Result<String, CliError> {
    let built = kind.visit_render(Frames(doc))?;
    let bots = doc.get("bots").cloned().unwrap_or(Value::Null);
    // A log from Botzone keeps the scores only in the judge's last answer.
    let scores = doc.get("scores").cloned().unwrap_or_else(|| {
        let finish = log_of(doc)
            .iter()
            .filter_map(|e| e.get("output"))
            .find(|o| o.get("command").and_then(Value::as_str) == Some("finish"));
        let content = finish.and_then(|o| o.get("content"));
        (0..kind.seats())
            .map(|p| {
                content
                    .and_then(|c| c.get(p.to_string()))
                    .cloned()
                    .unwrap_or(Value::Null)
            })
            .collect()
    });
    let data = json!({
        "game": kind.name(),
        "measure": built.measure,
        "bots": bots,
        "final": {
            "scores": scores,
            "verdicts": doc.get("verdicts").cloned().unwrap_or(Value::Null),
        },
        "setup": built.setup,
        "frames": built.frames,
    });
    let body = format!(
        r#"<h1>{title}</h1>
<div id="controls">
<button id="first" title="first turn (Home)">|◀</button>
<button id="prev" title="one turn back (←)">◀◀</button>
<button id="play" title="play / pause (space)">▶</button>
<button id="next" title="one turn on (→)">▶▶</button>
<button id="last" title="last turn (End)">▶|</button>
<input id="slider" type="range" min="0" max="0" step="1" value="0" aria-label="turn">
<span id="turn-label"></span>
<label>speed <select id="speed">
<option value="1">1</option><option value="2">2</option><option value="4" selected>4</option><option value="8">8</option><option value="16">16</option>
</select> turns/s</label>
</div>
<div id="main">
<svg id="board" role="img" aria-label="the board"></svg>
<div id="side">
<table id="seats"><thead><tr><th>seat</th><th>bot</th><th>action</th><th>verdict</th><th>{measure}</th><th>final score</th></tr></thead><tbody id="seats-body"></tbody></table>
<div id="note" class="note"></div>
<svg id="chart" role="img" aria-label="{measure} over the game"></svg>
<p class="note">{measure} per seat over the game. Keys: ← → one turn, space play/pause, Home/End. Open <code>#turn=N</code> or <code>#end</code> to start at a turn.</p>
</div>
</div>
<script type="application/json" id="replay-data">{data}</script>"#,
        title = escape(title),
        measure = escape(built.measure),
        data = script_json(&data),
    );
    Ok(page(title, "", &body, &[SVG, built.script, PLAYER]))
}

/// Where a replay page goes by default: the log's path with `.html`.
pub fn default_out(log: &Path) -> PathBuf {
    log.with_extension("html")
}

/// `botzone replay LOG --html [-o FILE] [--game GAME]`: writes the page,
/// says where on stderr.
///
/// # Errors
/// When the log cannot be read or replayed, or the page cannot be written.
pub fn run(log: &Path, out: Option<&Path>, game: Option<GameKind>) -> Result<(), CliError> {
    let doc = read_log(log)?;
    let kind = game_of(&doc, game, log)?;
    let name = log
        .file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    let title = format!("{} replay: {name}", kind.name());
    let html = replay_page(&doc, kind, &title)?;
    let out = out.map_or_else(|| default_out(log), Path::to_path_buf);
    std::fs::write(&out, &html).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    eprintln!(
        "replay: {} ({} KB)",
        out.display(),
        html.len().div_ceil(1024)
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_keep_scripts_closed() {
        let v = json!({"bot": "</script><script>alert(1)</script>"});
        assert!(!script_json(&v).contains('<'));
    }

    #[test]
    fn a_log_without_a_game_needs_one() {
        let doc = json!({"log": []});
        assert!(game_of(&doc, None, Path::new("x")).is_err());
        assert_eq!(
            game_of(&doc, Some(GameKind::Tank), Path::new("x")).unwrap(),
            GameKind::Tank
        );
    }
}
