//! Enclosure on a replay page ([`Render`]): each player's land, trails,
//! positions, pen state and the traps.
//!
//! Vertices are `(x, y)` in `0..=10` (index `y * 11 + x`), cells `(i, j)`
//! in `0..10` (the unit square whose top-left corner is vertex `(i, j)`).
//! The setup holds `side` (11 vertices a side); a frame holds `land` (100
//! characters, cell `(i, j)` at `j * 10 + i`: `0`-`3` its owner, `.`
//! nobody), `pos` (`[x, y]` per player, kept where a player died),
//! `state` (0 pen up, 1 pen down, -1 dead), `stuck` (turns still held by a
//! trap), `trails` (each player's trail as vertex indices, from where the
//! pen went down), `traps` (`[x, y, counter]`) and `value` (the scores).

use super::{Command, Dir, Pen, State, CELLS, CELL_SIDE, PLAYERS, SIDE};
use crate::games::render::{numbers, seat, Render};
use crate::json::{object, Value};

/// The players' colours (0 red, 1 green, 2 blue, 3 amber), as Pacman2's.
const COLORS: [&str; PLAYERS] = ["#d7263d", "#2e933c", "#1b6ac9", "#e08e0b"];

/// What a command does, in words.
fn command_text(c: Command) -> String {
    let dir = match c.dir {
        Dir::Up => "↑",
        Dir::Down => "↓",
        Dir::Left => "←",
        Dir::Right => "→",
        Dir::Stay => "stay",
    };
    match c.pen {
        Pen::Keep => dir.to_string(),
        Pen::Down => format!("{dir}, pen down"),
        Pen::Skill => format!("{dir}, trap"),
    }
}

impl Render for State {
    const SCRIPT: &'static str = include_str!("render.js");

    const MEASURE: &'static str = "score";

    fn setup_json(&self) -> Value {
        object([
            ("side", Value::from(SIDE)),
            (
                "seats",
                Value::Array(
                    (0..PLAYERS)
                        .map(|p| seat(&format!("player {p}"), COLORS[p]))
                        .collect(),
                ),
            ),
        ])
    }

    fn frame_json(&self, last: Option<(&State, &[Command])>) -> Value {
        let mut land = String::with_capacity(CELLS);
        for j in 0..CELL_SIDE as u8 {
            for i in 0..CELL_SIDE as u8 {
                land.push(match self.owner(i, j) {
                    Some(o) => char::from(b'0' + o as u8),
                    None => '.',
                });
            }
        }
        let mut act = vec![Value::from(""); PLAYERS];
        if let Some((before, orders)) = last {
            for (p, slot) in act.iter_mut().enumerate() {
                let pl = before.player(p);
                if !pl.is_alive() {
                    continue;
                }
                *slot = Value::from(match orders[p] {
                    _ if pl.stuck() > 0 => "held by a trap".to_string(),
                    c if c == Command::INVALID => "no command (death)".to_string(),
                    c => command_text(c),
                });
            }
        }
        let players = (0..PLAYERS).map(|p| self.player(p));
        object([
            ("turn", Value::from(self.turn())),
            ("land", Value::from(land)),
            (
                "pos",
                Value::Array(
                    players
                        .clone()
                        .map(|pl| {
                            let (x, y) = pl.position();
                            numbers([x, y])
                        })
                        .collect(),
                ),
            ),
            (
                "state",
                numbers(players.clone().map(|pl| pl.state().as_i8())),
            ),
            ("stuck", numbers(players.clone().map(|pl| pl.stuck()))),
            (
                "trails",
                Value::Array(
                    (0..PLAYERS)
                        .map(|p| numbers(self.trail(p).iter().copied()))
                        .collect(),
                ),
            ),
            (
                "traps",
                Value::Array(self.traps().map(|(x, y, c)| numbers([x, y, c])).collect()),
            ),
            ("act", Value::Array(act)),
            ("value", numbers(self.scores_i32())),
            (
                "alive",
                Value::Array(players.map(|pl| Value::from(pl.is_alive())).collect()),
            ),
        ])
    }
}

/// `(x, y)` of a vertex index, for tests.
#[cfg(test)]
fn vertex_xy(v: u8) -> (u8, u8) {
    super::xy(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_closed_square_shows_as_land() {
        let mut s = State::new([(0, 0), (10, 0), (0, 10), (10, 10)]);
        let walk = [
            (Dir::Right, Pen::Down),
            (Dir::Down, Pen::Keep),
            (Dir::Left, Pen::Keep),
        ];
        for (dir, pen) in walk {
            s.apply_unchecked(&[
                Command::new(dir, pen),
                Command::STAY,
                Command::STAY,
                Command::STAY,
            ]);
        }
        let frame = s.frame_json(None);
        assert_eq!(
            frame["trails"][0].as_array().unwrap().len(),
            s.trail(0).len()
        );
        let last = *s.trail(0).last().unwrap();
        assert_eq!(vertex_xy(last), (0, 1));
        let before = s.clone();
        let orders = [
            Command::new(Dir::Up, Pen::Keep),
            Command::STAY,
            Command::INVALID,
            Command::STAY,
        ];
        s.apply_unchecked(&orders);
        let frame = s.frame_json(Some((&before, &orders)));
        assert_eq!(&frame["land"].as_str().unwrap()[..2], "0.");
        assert_eq!(frame["act"][0].as_str(), Some("↑"));
        assert_eq!(frame["act"][2].as_str(), Some("no command (death)"));
        assert_eq!(frame["alive"][2].as_bool(), Some(false));
        assert_eq!(frame["value"][0].as_i64(), Some(i64::from(s.score(0))));
    }
}
