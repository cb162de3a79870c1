//! `tank_rules`: a sparring partner for Tank (2018), designed unlike
//! `tank_minimax`: no search, a few rules applied to each tank in turn.
//!
//! 1. A tank that may shoot fires at the enemy base, else at an enemy tank,
//!    when one is the first thing in a line of fire.
//! 2. Otherwise it takes the step that brings it closest to destroying the
//!    enemy base: the attack-time map of the evaluation (turns to walk and
//!    shoot through bricks to a line of fire at the base), moving to an
//!    empty neighbour or shooting the brick in the way, and never into a
//!    cell an enemy tank that may shoot can fire at this turn (nor staying
//!    in one, when a step out exists).
//!
//! Deterministic: the same input always gets the same answer. It speaks the
//! wiki's protocol like `tank_minimax` (keep-running and traditional mode).

use std::process::ExitCode;

use botzone::games::tank::eval::TankEval;
use botzone::games::tank::protocol::{self as tank_protocol, Tracker};
use botzone::games::tank::{item, step, Field, TankAction, BASE_POS, CELLS, WIDTH};
use botzone::json::Value;
use botzone::protocol::{self, Bot, BotError, Input, Output};
use botzone::time::Deadline;

/// The first cell a shot from `from` in `dir` hits and what is there
/// (`None` when the shot leaves the board).
fn first_hit(field: &Field, from: usize, dir: usize) -> Option<(usize, u8)> {
    let mut c = from;
    while let Some(n) = step(c, dir) {
        c = n;
        let items = field.at_cell(c);
        if items != item::NONE {
            return Some((c, items));
        }
    }
    None
}

/// Cells an enemy tank that may shoot can fire at this turn.
fn threatened(field: &Field, enemy: usize) -> [bool; CELLS] {
    let mut out = [false; CELLS];
    for t in 0..2 {
        let Some(c) = field.tank_cell(enemy * 2 + t) else {
            continue;
        };
        if field.shot_last_turn(enemy, t) {
            continue;
        }
        for dir in 0..4 {
            let mut at = c;
            while let Some(n) = step(at, dir) {
                at = n;
                let items = field.at_cell(at);
                if items & (item::STEEL | item::BRICK | item::BASE) != 0 {
                    break;
                }
                out[at] = true;
            }
        }
    }
    out
}

/// The rules' action for tank `t` of `side`.
fn rule_action(field: &Field, side: usize, t: usize, eval: &mut TankEval) -> TankAction {
    let Some(c) = field.tank_cell(side * 2 + t) else {
        return TankAction::Stay;
    };
    let enemy = 1 - side;
    let loaded = !field.shot_last_turn(side, t);
    let shoot = |dir: usize| TankAction::ALL[5 + dir];
    let (bx, by) = BASE_POS[enemy];
    let enemy_base = by * WIDTH + bx;
    let enemy_tanks = item::tank(enemy, 0) | item::tank(enemy, 1);
    if loaded {
        for target in [0u8, 1u8] {
            for dir in 0..4 {
                if let Some((cell, items)) = first_hit(field, c, dir) {
                    let hit = if target == 0 {
                        cell == enemy_base && items & item::BASE != 0
                    } else {
                        items & enemy_tanks != 0
                    };
                    if hit {
                        return shoot(dir);
                    }
                }
            }
        }
    }
    let time = eval.attack_times(field)[enemy];
    let danger = threatened(field, enemy);
    let penalty = |cell: usize| if danger[cell] { 100 } else { 0 };
    let mut best = (i32::from(time[c]) + penalty(c), TankAction::Stay);
    for dir in 0..4 {
        let Some(n) = step(c, dir) else { continue };
        let items = field.at_cell(n);
        let candidate = if items == item::NONE {
            (i32::from(time[n]) + penalty(n), TankAction::ALL[1 + dir])
        } else if items & item::BRICK != 0 && loaded {
            (i32::from(time[n]) + 1 + penalty(c), shoot(dir))
        } else {
            continue;
        };
        if candidate.0 < best.0 && field.is_valid(side, t, candidate.1) {
            best = candidate;
        }
    }
    best.1
}

struct RulesBot {
    eval: TankEval,
    tracker: Option<Tracker>,
}

impl RulesBot {
    fn answer(&mut self) -> Result<Output, BotError> {
        let tracker = self
            .tracker
            .as_mut()
            .ok_or_else(|| BotError::new("no field yet"))?;
        let side = tracker.side();
        let field = tracker.field();
        let mut joint = [TankAction::Stay; 2];
        if !field.is_over() {
            for (t, a) in joint.iter_mut().enumerate() {
                *a = rule_action(field, side, t, &mut self.eval);
            }
            // Two tanks stepping into one cell: the second stays.
            let mut both = [[TankAction::Stay; 2]; 2];
            both[side] = joint;
            if field.check(both).is_err() {
                joint[1] = TankAction::Stay;
            }
        }
        Ok(Output::new(tracker.answer(joint)))
    }
}

impl Bot for RulesBot {
    fn on_input(&mut self, input: &Input, _deadline: &Deadline) -> Result<Output, BotError> {
        self.tracker = Some(Tracker::from_input(input)?);
        self.answer()
    }

    fn on_request(&mut self, request: &Value, _deadline: &Deadline) -> Result<Output, BotError> {
        match self.tracker.as_mut() {
            Some(tracker) => tracker.follow(request, "request")?,
            None => self.tracker = Some(Tracker::start(request, "request")?),
        }
        self.answer()
    }

    fn fallback(&self) -> Option<Value> {
        Some(tank_protocol::answer([TankAction::Stay; 2]))
    }
}

fn main() -> ExitCode {
    protocol::run(&mut RulesBot {
        eval: TankEval::new(),
        tracker: None,
    })
}
