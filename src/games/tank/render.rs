//! Tank on a replay page ([`Render`]): bricks, steel, the two bases, the
//! four tanks and the shots of the turn.
//!
//! Cells are `(x, y)` with `(0, 0)` at the top left, or the index
//! `y * 9 + x`. The setup holds `width`, `height`, `steel` and `bases`
//! (`[x, y]` each, blue's first) and `maxTurn`; a frame holds `bricks` (the
//! cells with a brick), `tanks` (`[x, y]` or `null` once destroyed, for
//! blue 0, blue 1, red 0, red 1), `base` (whether each side's base stands),
//! `result` (-2 going on, -1 draw, 0 blue won, 1 red won) and `shots`:
//! `[tank, x, y, dir, x2, y2, hit]` for each shot of the turn, from the
//! shooter's cell `(x, y)` in direction `dir` (0 up, 1 right, 2 down,
//! 3 left) to the cell `(x2, y2)` it reached (`hit` 1: that cell's brick,
//! base, steel or tank stopped it; 0: it left the board after that cell).

use super::{
    cell, step, Field, Outcome, SideAction, TankAction, BASE_POS, CELLS, HEIGHT, SIDES, STEEL_POS,
    TANKS_PER_SIDE, WIDTH,
};
use crate::games::render::{numbers, seat, Render};
use crate::json::{object, Value};

/// What an action does, in words.
fn action_text(a: TankAction) -> &'static str {
    match a {
        TankAction::Stay => "stay",
        TankAction::Up => "↑",
        TankAction::Right => "→",
        TankAction::Down => "↓",
        TankAction::Left => "←",
        TankAction::UpShoot => "shoot ↑",
        TankAction::RightShoot => "shoot →",
        TankAction::DownShoot => "shoot ↓",
        TankAction::LeftShoot => "shoot ←",
    }
}

impl Field {
    /// The shots of the turn from `before` with `joint`: every live tank
    /// that shot, from where it stands after the moves to the first
    /// non-empty cell (as [`Field::apply_unchecked`] traces them).
    fn shots(before: &Field, joint: &[[TankAction; 2]; 2]) -> Vec<Value> {
        // The field after the moves alone: shooting tanks stay put.
        let mut moved = before.clone();
        let mut moves = *joint;
        for a in moves.iter_mut().flatten() {
            if a.is_shoot() {
                *a = TankAction::Stay;
            }
        }
        moved.apply_unchecked(moves);
        let mut out = Vec::new();
        for (side, actions) in joint.iter().enumerate() {
            for (tank, &a) in actions.iter().enumerate() {
                let Some(dir) = a.direction().filter(|_| a.is_shoot()) else {
                    continue;
                };
                let Some((x, y)) = moved.tank_position(side, tank) else {
                    continue;
                };
                let from = cell(x, y);
                let (end, hit) = match moved.first_hit(from, dir) {
                    Some(c) => (c, 1),
                    None => {
                        let mut c = from;
                        while let Some(n) = step(c, dir) {
                            c = n;
                        }
                        (c, 0)
                    }
                };
                out.push(numbers([
                    side * 2 + tank,
                    x,
                    y,
                    dir,
                    end % WIDTH,
                    end / WIDTH,
                    hit,
                ]));
            }
        }
        out
    }
}

impl Render for Field {
    const SCRIPT: &'static str = include_str!("render.js");

    const MEASURE: &'static str = "tanks";

    fn setup_json(&self) -> Value {
        let xy = |&(x, y): &(usize, usize)| numbers([x, y]);
        object([
            ("width", Value::from(WIDTH)),
            ("height", Value::from(HEIGHT)),
            ("steel", Value::Array(STEEL_POS.iter().map(xy).collect())),
            ("bases", Value::Array(BASE_POS.iter().map(xy).collect())),
            ("maxTurn", Value::from(self.max_turns())),
            (
                "seats",
                Value::Array(vec![seat("blue", "#1b6ac9"), seat("red", "#d7263d")]),
            ),
        ])
    }

    fn frame_json(&self, last: Option<(&Field, &[SideAction])>) -> Value {
        let last = last.map(|(before, joint)| (before, [joint[0].0, joint[1].0]));
        let bricks = self.brick_bits();
        let tanks = (0..SIDES * TANKS_PER_SIDE).map(|i| match self.tank_cell(i) {
            Some(c) => numbers([c % WIDTH, c / WIDTH]),
            None => Value::Null,
        });
        let live = |side: usize| {
            (0..TANKS_PER_SIDE)
                .filter(|&t| self.tank_alive(side, t))
                .count()
        };
        let mut act = vec![Value::from(""); SIDES];
        let mut shots = Vec::new();
        if let Some((before, joint)) = last {
            for (side, slot) in act.iter_mut().enumerate() {
                let text: Vec<&str> = (0..TANKS_PER_SIDE)
                    .map(|t| {
                        if before.tank_alive(side, t) {
                            action_text(joint[side][t])
                        } else {
                            "-"
                        }
                    })
                    .collect();
                *slot = Value::from(text.join(" / "));
            }
            shots = Field::shots(before, &joint);
        }
        let result = match self.outcome() {
            Outcome::Ongoing => -2,
            Outcome::Draw => -1,
            Outcome::Win(side) => side as i64,
        };
        object([
            ("turn", Value::from(self.turn())),
            (
                "bricks",
                numbers((0..CELLS).filter(|&c| bricks >> c & 1 == 1)),
            ),
            ("tanks", Value::Array(tanks.collect())),
            (
                "base",
                Value::Array(
                    (0..SIDES)
                        .map(|s| Value::from(self.base_alive(s)))
                        .collect(),
                ),
            ),
            ("result", Value::from(result)),
            ("shots", Value::Array(shots)),
            ("act", Value::Array(act)),
            ("value", numbers((0..SIDES).map(live))),
            (
                "alive",
                Value::Array(
                    (0..SIDES)
                        .map(|s| Value::from(live(s) > 0 && self.base_alive(s)))
                        .collect(),
                ),
            ),
        ])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::tank::bricks_from_seed;

    #[test]
    fn a_shot_stops_on_the_first_thing_in_its_way() {
        let mut field = Field::new(bricks_from_seed(1));
        let before = field.clone();
        // Blue tank 0 starts at (2, 0) and shoots down.
        let joint = [
            [TankAction::DownShoot, TankAction::Stay],
            [TankAction::Stay, TankAction::Stay],
        ];
        field.apply_unchecked(joint);
        let frame = field.frame_json(Some((
            &before,
            &[SideAction(joint[0]), SideAction(joint[1])],
        )));
        let shot = &frame["shots"][0];
        assert_eq!(shot[0].as_u64(), Some(0));
        let (x, y) = (shot[1].as_u64().unwrap(), shot[2].as_u64().unwrap());
        assert_eq!(before.tank_position(0, 0), Some((x as usize, y as usize)));
        let end = cell(
            shot[4].as_u64().unwrap() as usize,
            shot[5].as_u64().unwrap() as usize,
        );
        assert_eq!(before.first_hit(cell(x as usize, y as usize), 2), Some(end));
        assert_eq!(frame["act"][0].as_str(), Some("shoot ↓ / stay"));
    }
}
