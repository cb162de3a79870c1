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
//! element with the board of `frame` (setting its `viewBox`). The page
//! defines `svgElement(parent, name, attrs)` for it (an SVG element with
//! these attributes, appended to `parent`). It should
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

#[cfg(test)]
mod tests {
    use crate::games::botzone::BotzoneGame;
    use crate::games::line::LineGame;
    use crate::games::registry::{GameKind, RenderVisitor};
    use crate::games::render::Render;
    use crate::games::Rules;
    use crate::json::Value;
    use crate::rng::Rng;

    /// Random games of `G`: every frame carries what the page needs, one
    /// entry per seat, and follows the turn.
    fn frames_keep_the_contract<G: Rules + Render>() {
        let mut rng = Rng::new(7);
        for seed in 1..4 {
            let mut game = G::from_seed(seed);
            let setup = game.setup_json();
            let seats = setup["seats"].as_array().expect("setup.seats");
            assert_eq!(seats.len(), G::SEATS, "{}", G::NAME);
            assert!(seats
                .iter()
                .all(|s| s["color"].as_str().is_some_and(|c| c.starts_with('#'))));
            assert!(G::SCRIPT.contains("function drawBoard(svg, setup, frame)"));
            let check = |frame: &Value, turn: u32| {
                for key in ["act", "value", "alive"] {
                    let list = frame[key]
                        .as_array()
                        .unwrap_or_else(|| panic!("frame.{key}"));
                    assert_eq!(list.len(), G::SEATS, "{} frame.{key}", G::NAME);
                }
                assert_eq!(frame["turn"].as_u64(), Some(u64::from(turn)), "{}", G::NAME);
            };
            check(&game.frame_json(None), 0);
            let mut actions = G::Actions::default();
            while !game.is_over() {
                let joint: Vec<G::Action> = (0..G::SEATS)
                    .map(|p| {
                        if game.is_active(p) {
                            game.legal_actions(p, &mut actions);
                            actions[rng.below(actions.len() as u32) as usize]
                        } else {
                            G::Action::default()
                        }
                    })
                    .collect();
                let before = game.clone();
                game.apply_unchecked(&joint);
                let frame = game.frame_json(Some((&before, &joint)));
                check(&frame, game.turn());
                for (p, alive) in frame["alive"].as_array().unwrap().iter().enumerate() {
                    if alive.as_bool() == Some(true) && before.is_active(p) {
                        assert!(frame["act"][p].as_str().is_some_and(|a| !a.is_empty()));
                    }
                }
            }
        }
    }

    struct Contract;
    impl RenderVisitor for Contract {
        type Output = ();
        fn botzone<G: BotzoneGame + Render>(self) {
            frames_keep_the_contract::<G>();
        }
        fn line<G: LineGame + Render>(self) {
            frames_keep_the_contract::<G>();
        }
    }

    #[test]
    fn every_game_renders_its_frames() {
        for kind in GameKind::ALL {
            kind.visit_render(Contract);
        }
    }
}
