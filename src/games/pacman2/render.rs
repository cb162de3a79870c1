//! Pacman2 on a replay page ([`Render`]): walls, generators, fruit, the
//! players with their strength and boost, and the beams of the turn.
//!
//! Cells are row-major indices (`row * width + col`). The setup holds
//! `width`, `height` and `static` (the judge's wall and generator bits per
//! cell); a frame holds `pos` (`[row, col]` per player, kept where a player
//! died), `strength`, `boost` (turns of large-fruit boost left), `alive`,
//! `small` and `large` (cells with fruit), `gen` (turns to the next fruit
//! wave) and `beams`: `[player, direction, [cells…]]` for each beam fired
//! in the turn, from the shooter's cell along the beam's path.

use super::{has, Action, Pacman2, PLAYERS};
use crate::games::render::{numbers, seat, Render};
use crate::json::{object, Value};

/// The players' colours (0 red, 1 green, 2 blue, 3 amber).
const COLORS: [&str; PLAYERS] = ["#d7263d", "#2e933c", "#1b6ac9", "#e08e0b"];

/// What an action does, in words.
fn action_text(a: Action) -> &'static str {
    match a.code() {
        -1 => "stay",
        0 => "move ↑",
        1 => "move →",
        2 => "move ↓",
        3 => "move ←",
        4 => "shoot ↑",
        5 => "shoot →",
        6 => "shoot ↓",
        7 => "shoot ←",
        _ => "invalid answer",
    }
}

impl Pacman2 {
    fn cell_index(&self, p: usize) -> usize {
        let pl = self.player(p);
        pl.row * self.width() + pl.col
    }

    /// The cells with a small and with a large fruit.
    fn fruit_cells(&self) -> (Vec<usize>, Vec<usize>) {
        let (mut small, mut large) = (Vec::new(), Vec::new());
        for i in 0..self.width() * self.height() {
            if has(&self.cur.small, i as u8) {
                small.push(i);
            }
            if has(&self.cur.large, i as u8) {
                large.push(i);
            }
        }
        (small, large)
    }

    /// The beams fired in the turn from `before` to `self` with `joint`:
    /// `(player, direction, cells from the shooter's along the path)`. A
    /// shot is fired by a player alive before the turn whose shot was valid
    /// and who was not eaten in a fight (on its cell after the moves, by a
    /// stronger player), as in [`Pacman2::apply`].
    fn beams(&self, before: &Pacman2, joint: &[Action]) -> Vec<(usize, usize, Vec<usize>)> {
        let mut out = Vec::new();
        let fought = |p: usize| {
            let here = self.cell_index(p);
            (0..PLAYERS).any(|q| {
                q != p
                    && before.is_alive(q)
                    && before.is_valid(q, joint[q])
                    && self.cell_index(q) == here
                    && before.cur.strength[q] > before.cur.strength[p]
            })
        };
        for (p, &a) in joint.iter().enumerate().take(PLAYERS) {
            if !a.is_shot() || !before.is_valid(p, a) || fought(p) {
                continue;
            }
            let dir = (a.code() - 4) as usize;
            let start = self.cell_index(p);
            let beam = &self.board.beam[start][dir];
            let mut cells = vec![start];
            let mut at = start;
            // A walled side leads nowhere (`dest` is the cell itself).
            for _ in 0..self.width() * self.height() {
                let next = self.board.dest[at][dir + 1] as usize;
                if next == at || next == start || !has(beam, next as u8) {
                    break;
                }
                cells.push(next);
                at = next;
            }
            out.push((p, dir, cells));
        }
        out
    }
}

impl Render for Pacman2 {
    const SCRIPT: &'static str = include_str!("render.js");

    const MEASURE: &'static str = "strength";

    fn setup_json(&self) -> Value {
        let (w, h) = (self.width(), self.height());
        let statics = (0..w * h).map(|i| self.static_at(i / w, i % w));
        object([
            ("width", Value::from(w)),
            ("height", Value::from(h)),
            ("static", numbers(statics)),
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

    fn frame_json(&self, last: Option<(&Pacman2, &[Action])>) -> Value {
        let players = self.players();
        let (small, large) = self.fruit_cells();
        let mut act = vec![Value::from(""); PLAYERS];
        let mut beams = Vec::new();
        if let Some((before, joint)) = last {
            for p in 0..PLAYERS {
                if before.is_alive(p) {
                    let a = joint[p];
                    act[p] = Value::from(if before.is_valid(p, a) || a == Action::Invalid {
                        action_text(a).to_string()
                    } else {
                        format!("{} (invalid: death)", action_text(a))
                    });
                }
            }
            for (p, dir, cells) in self.beams(before, joint) {
                beams.push(Value::Array(vec![
                    Value::from(p),
                    Value::from(dir),
                    numbers(cells),
                ]));
            }
        }
        object([
            ("turn", Value::from(self.turn())),
            (
                "pos",
                Value::Array(players.iter().map(|pl| numbers([pl.row, pl.col])).collect()),
            ),
            ("strength", numbers(players.iter().map(|pl| pl.strength))),
            ("boost", numbers(players.iter().map(|pl| pl.power_up_left))),
            (
                "alive",
                Value::Array(players.iter().map(|pl| Value::from(!pl.dead)).collect()),
            ),
            ("small", numbers(small)),
            ("large", numbers(large)),
            ("gen", Value::from(self.generator_turn_left())),
            ("beams", Value::Array(beams)),
            ("act", Value::Array(act)),
            ("value", numbers(players.iter().map(|pl| pl.strength))),
        ])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::pacman2::Map;

    #[test]
    fn a_beam_runs_from_the_shooter_to_a_wall() {
        // Seed 1's map; find a turn where a valid shot is fired.
        let map = Map::generate(1);
        let mut g = Pacman2::new(&map);
        // Nobody is strong enough to shoot at the start (strength 1).
        let before = g.clone();
        let joint = [Action::UpShoot, Action::Stay, Action::Stay, Action::Stay];
        g.apply_unchecked(&joint);
        assert!(
            g.beams(&before, &joint).is_empty(),
            "a weak player cannot shoot"
        );
        let frame = g.frame_json(Some((&before, &joint)));
        assert_eq!(frame["act"][0].as_str(), Some("shoot ↑ (invalid: death)"));
        assert_eq!(frame["alive"][0].as_bool(), Some(false));
    }

    #[test]
    fn frames_follow_the_state() {
        let map = Map::generate(2);
        let g = Pacman2::new(&map);
        let setup = g.setup_json();
        assert_eq!(setup["width"].as_u64(), Some(g.width() as u64));
        let frame = g.frame_json(None);
        for p in 0..PLAYERS {
            let pl = g.player(p);
            assert_eq!(frame["pos"][p][0].as_u64(), Some(pl.row as u64));
            assert_eq!(frame["pos"][p][1].as_u64(), Some(pl.col as u64));
            assert_eq!(frame["value"][p].as_i64(), Some(1));
        }
        let small = frame["small"].as_array().unwrap().len();
        assert_eq!(small as i32, g.small_fruit_count());
    }
}
