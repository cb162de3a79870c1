//! What a game shows on a replay page (`botzone replay LOG --html`).
//!
//! The page is one self-contained HTML file written by the `botzone` tool,
//! the same for every game: controls, a table of the seats, a chart, and
//! the turns as JSON frames. What is the game's own comes from [`Render`]:
//! the script that draws its board, the parts of the field that never
//! change ([`Render::setup_json`]), and each state as a frame
//! ([`Render::frame_json`]), built from the simulator's state so that the
//! picture is the simulator's. Each game implements it in its own folder
//! (`games::pacman2::render`, `games::tank::render`,
//! `games::enclosure::render`), beside its drawing script.
//!
//! # The JSON
//!
//! The setup is an object with at least
//! - `seats`: one `{"name": …, "color": "#rrggbb"}` per seat (the page
//!   colours the seat's row and chart line with it);
//!
//! and whatever the script needs (size, walls, …). A frame is an object
//! with at least
//! - `act`: one string per seat, what that seat did in the turn that led
//!   here as the game understood it (`""` at the start and for seats that
//!   took no part);
//! - `value`: one number per seat, what the chart follows over the game
//!   ([`Render::MEASURE`]: strength, score, …);
//! - `alive`: one boolean per seat;
//!
//! and whatever the script needs to draw the state.
//!
//! # The script
//!
//! [`Render::SCRIPT`] is plain JavaScript (no modules, no network, no
//! fonts) that defines one global function
//! `drawBoard(svg, setup, frame)`: it replaces the content of the `<svg>`
//! element with the board of `frame` (setting its `viewBox`). It should
//! put what a test or a person wants to read on the elements it draws as
//! `data-*` attributes (positions, strengths), so that the page can be
//! checked against the simulator.

use crate::games::Game;
use crate::json::Value;

/// A game's part of a replay page: see the [module docs](self) for the
/// JSON and the script's contract.
pub trait Render: Game {
    /// The JavaScript that defines `drawBoard(svg, setup, frame)`.
    const SCRIPT: &'static str;

    /// What `value` in a frame is, for the chart's caption ("strength",
    /// "score", "tanks").
    const MEASURE: &'static str;

    /// The seats and the parts of the field that never change, taken from
    /// the state at the start of the game.
    fn setup_json(&self) -> Value;

    /// This state as a frame. `last` is the state before the turn that led
    /// here and that turn's joint action, one per seat as
    /// [`Game::apply_unchecked`] takes it (`None` at the start): the frame then shows what happened in it
    /// (actions, beams, shots).
    fn frame_json(&self, last: Option<(&Self, &[Self::Action])>) -> Value;
}

/// A JSON array of numbers.
pub(crate) fn numbers<T: Into<Value>>(items: impl IntoIterator<Item = T>) -> Value {
    Value::Array(items.into_iter().map(Into::into).collect())
}

/// A `seats` entry.
pub(crate) fn seat(name: &str, color: &str) -> Value {
    crate::json::object([("name", Value::from(name)), ("color", Value::from(color))])
}
