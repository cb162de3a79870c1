//! `pacman_rules`: a sparring partner for Pacman2, designed unlike
//! `pacman_mc`: no simulation of the future, a few rules on the field as it
//! stands, the way many ladder bots play.
//!
//! Each valid action gets a value, and the best one is played:
//! 1. A beam with players in its path is worth their number (a hit moves
//!    six strength for a cost of four); a beam into an empty line is never
//!    shot.
//! 2. A step (or staying) onto a cell where a stronger player stands or can
//!    step this turn is all but forbidden; so is standing in the beam path
//!    of a stronger player able to shoot, to a lesser degree.
//! 3. Stepping onto a weaker player is worth half its strength.
//! 4. Otherwise the bot walks to the nearest fruit by breadth-first search
//!    (a large fruit counts as five steps nearer while not boosted).
//!
//! Deterministic: the same input always gets the same answer. It speaks
//! Botzone's protocol like `pacman_mc` (keep-running and traditional mode).

use std::process::ExitCode;

use botzone::games::pacman2::protocol::{answer, Tracker};
use botzone::games::pacman2::{Action, Pacman2, MAX_CELLS, PLAYERS};
use botzone::json::Value;
use botzone::protocol::{self, Bot, BotError, Input, Output};
use botzone::time::Deadline;

/// Most cells of a field.
const CELLS: usize = MAX_CELLS;
/// Row and column steps for up, right, down, left (the judge's 0..=3).
const DR: [isize; 4] = [-1, 0, 1, 0];
const DC: [isize; 4] = [0, 1, 0, -1];
/// No path.
const FAR: i32 = 1000;

/// The field's geometry, read once per match.
struct Geometry {
    width: usize,
    /// Neighbour per direction, `None` behind a wall.
    next: [[Option<u8>; 4]; CELLS],
}

impl Geometry {
    fn of(game: &Pacman2) -> Geometry {
        let (w, h) = (game.width(), game.height());
        let mut next = [[None; 4]; CELLS];
        for r in 0..h {
            for c in 0..w {
                for d in 0..4 {
                    if game.static_at(r, c) & (1 << d) == 0 {
                        let nr = (r as isize + DR[d]).rem_euclid(h as isize) as usize;
                        let nc = (c as isize + DC[d]).rem_euclid(w as isize) as usize;
                        next[r * w + c][d] = Some((nr * w + nc) as u8);
                    }
                }
            }
        }
        Geometry { width: w, next }
    }

    /// The cells a beam from `cell` in direction `d` passes (the judge's
    /// beam: on while the current cell has no wall that way, up to the
    /// start again).
    fn beam(&self, cell: usize, d: usize) -> u128 {
        let mut path = 0u128;
        let mut at = cell;
        while let Some(n) = self.next[at][d] {
            at = usize::from(n);
            if at == cell {
                break;
            }
            path |= 1 << at;
        }
        path
    }

    /// Steps from `from` to every cell, not through `blocked` cells.
    fn distances(&self, from: usize, blocked: u128) -> [i32; CELLS] {
        let mut dist = [FAR; CELLS];
        let mut queue = [0u8; CELLS];
        let (mut head, mut tail) = (0, 1);
        queue[0] = from as u8;
        dist[from] = 0;
        while head < tail {
            let at = usize::from(queue[head]);
            head += 1;
            for n in self.next[at].iter().flatten() {
                let n = usize::from(*n);
                if dist[n] == FAR && blocked & (1 << n) == 0 {
                    dist[n] = dist[at] + 1;
                    queue[tail] = n as u8;
                    tail += 1;
                }
            }
        }
        dist
    }
}

/// The rules' choice for player `me` of `game`.
fn rule_action(game: &Pacman2, geo: &Geometry, me: usize) -> Action {
    let w = geo.width;
    let cell_of = |p: usize| {
        let pl = game.player(p);
        pl.row * w + pl.col
    };
    let mine = cell_of(me);
    let strength = game.player(me).strength;
    let cost = game.constants().skill_cost;
    // Where stronger players stand or can step, their beams, who is where.
    let (mut danger, mut beams, mut others, mut stronger_at) = (0u128, 0u128, 0u128, 0u128);
    let mut weaker = [0i32; CELLS];
    for q in (0..PLAYERS).filter(|&q| q != me && game.is_alive(q)) {
        let at = cell_of(q);
        let s = game.player(q).strength;
        others |= 1 << at;
        if s > strength {
            stronger_at |= 1 << at;
            danger |= 1 << at;
            for n in geo.next[at].iter().flatten() {
                danger |= 1 << n;
            }
            if s > cost {
                for d in 0..4 {
                    beams |= geo.beam(at, d);
                }
            }
        } else if s < strength {
            weaker[at] = weaker[at].max(s);
        }
    }
    let fruit = game.small_fruit_cells() | game.large_fruit_cells();
    let boosted = game.player(me).power_up_left > 0;
    // Value of ending the turn on `cell`.
    let value_of = |cell: usize| -> i32 {
        let bit = 1u128 << cell;
        let mut v = 0;
        if danger & bit != 0 {
            v -= 10_000;
        }
        if beams & bit != 0 {
            v -= 300;
        }
        if weaker[cell] > 0 {
            v += 100 * weaker[cell] / 2;
        }
        // The nearest fruit, by a path around stronger players.
        let dist = geo.distances(cell, stronger_at);
        let mut best = FAR;
        let mut rest = fruit & !others;
        while rest != 0 {
            let f = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let large = game.large_fruit_cells() & (1 << f) != 0;
            let d = dist[f] - if large && !boosted { 5 } else { 0 };
            best = best.min(d);
        }
        if best < FAR - 10 {
            v -= 10 * best;
        }
        v
    };
    let mut choice = (Action::Stay, value_of(mine));
    for d in 0..4 {
        let Some(n) = geo.next[mine][d] else {
            continue;
        };
        let n = usize::from(n);
        // A step onto a stronger player is turned into staying.
        let v = if stronger_at & (1 << n) != 0 {
            value_of(mine) - 1
        } else {
            value_of(n)
        };
        if v > choice.1 {
            choice = (Action::ALL[1 + d], v);
        }
    }
    if strength > cost {
        let stay = value_of(mine);
        for d in 0..4 {
            let hits = (geo.beam(mine, d) & others).count_ones() as i32;
            if hits > 0 {
                let v = stay + 400 * hits;
                if v > choice.1 {
                    choice = (Action::ALL[5 + d], v);
                }
            }
        }
    }
    if game.is_valid(me, choice.0) {
        choice.0
    } else {
        Action::Stay
    }
}

struct RulesBot {
    tracker: Option<Tracker>,
    geometry: Option<Geometry>,
}

impl RulesBot {
    fn answer(&mut self) -> Result<Output, BotError> {
        let tracker = self
            .tracker
            .as_ref()
            .ok_or_else(|| BotError::new("no field yet"))?;
        let game = tracker.game();
        let me = tracker.me();
        let geo = self.geometry.get_or_insert_with(|| Geometry::of(game));
        let action = if game.is_active(me) {
            rule_action(game, geo, me)
        } else {
            Action::Stay
        };
        Ok(Output::new(answer(action, "")))
    }
}

impl Bot for RulesBot {
    fn on_input(&mut self, input: &Input, _deadline: &Deadline) -> Result<Output, BotError> {
        self.tracker = Some(Tracker::from_input(input)?);
        self.geometry = None;
        self.answer()
    }

    fn on_request(&mut self, request: &Value, _deadline: &Deadline) -> Result<Output, BotError> {
        match self.tracker.as_mut() {
            Some(tracker) => {
                let restart = botzone::games::pacman2::protocol::is_start(request);
                tracker.follow(request, "request")?;
                if restart {
                    self.geometry = None;
                }
            }
            None => self.tracker = Some(Tracker::start(request, "request")?),
        }
        self.answer()
    }

    fn fallback(&self) -> Option<Value> {
        // Staying is valid for every live player on every field.
        Some(answer(Action::Stay, ""))
    }
}

fn main() -> ExitCode {
    protocol::run(&mut RulesBot {
        tracker: None,
        geometry: None,
    })
}
