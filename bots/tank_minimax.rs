//! `tank_minimax`: a Tank (2018) bot. Iterative-deepening alpha-beta over
//! joint actions (our two tanks' pair, then the opponent's reply, judged
//! conservatively) with a real evaluation, move ordering that drops shots
//! dominated by staying, a preallocated transposition table and the turn's
//! deadline (`botzone::games::tank::eval::TankMinimax`). Its `debug` reports the depth
//! reached and the nodes searched. It never answers an invalid action.
//!
//! Protocol (the wiki's): the first request is `{"field":[i0,i1,i2],"mySide":s}`,
//! each later request the opponent's last actions `[a0,a1]` (-1 for a
//! destroyed tank); the response is `[a0,a1]`. It stays running between
//! turns (keep-running mode) and also works started afresh each turn with
//! the full history (traditional mode).
//!
//! ```text
//! $ echo '{"requests":[{"field":[124802088,13368984,10571895],"mySide":0}],"responses":[]}' \
//!     | BOTZONE_TIME_LIMIT=0.3 cargo run --release --bin tank_minimax
//! {"response":[2,2],"debug":"depth 4, nodes 699904, value 0, 225 ms"}
//! >>>BOTZONE_REQUEST_KEEP_RUNNING<<<
//! ```

use std::process::ExitCode;

use botzone::games::tank::eval::TankMinimax;
use botzone::games::tank::protocol::{self as tank_protocol, Tracker};
use botzone::games::tank::TankAction;
use botzone::json::Value;
use botzone::protocol::{self, Bot, BotError, Input, Output};
use botzone::time::Deadline;

/// Transposition table size: 2^20 entries (about 24 MB).
const TABLE_BITS: u32 = 20;

struct TankBot {
    player: TankMinimax,
    /// The match so far (`None` before the first request).
    tracker: Option<Tracker>,
    /// Experiment: the tanks' cells at the last answer, and for how many
    /// answers in a row they have not changed.
    last_cells: [Option<usize>; 4],
    still: u32,
}

/// Experiment (`TANK_BREAK=n`): after `n` answers with no tank moving, a
/// loaded tank of ours that faces an enemy tank through exactly one brick
/// shoots that brick.
fn break_after() -> Option<u32> {
    std::env::var("TANK_BREAK").ok()?.trim().parse().ok()
}

fn lock_break(field: &botzone::games::tank::Field, side: usize) -> Option<(usize, TankAction)> {
    use botzone::games::tank::item;
    const SHOTS: [TankAction; 4] = [
        TankAction::UpShoot,
        TankAction::RightShoot,
        TankAction::DownShoot,
        TankAction::LeftShoot,
    ];
    let enemy = if side == 0 {
        item::RED0 | item::RED1
    } else {
        item::BLUE0 | item::BLUE1
    };
    for t in 0..2 {
        let Some(c) = field.tank_cell(side * 2 + t) else {
            continue;
        };
        if field.shot_last_turn(side, t) {
            continue;
        }
        // Not while a loaded enemy tank has a clear line on it: its shot
        // is cancelled only by ours at it.
        let exposed = (0..4).any(|d| {
            field.first_hit(c, d).is_some_and(|e| {
                let items = field.at_cell(e);
                (0..2).any(|u| {
                    let i = (1 - side) * 2 + u;
                    items & (item::BLUE0 << i) != 0 && !field.shot_last_turn(1 - side, u)
                })
            })
        });
        if exposed {
            continue;
        }
        for d in 0..4 {
            let Some(b) = field.first_hit(c, d) else {
                continue;
            };
            if field.at_cell(b) != item::BRICK {
                continue;
            }
            let Some(e) = field.first_hit(b, d) else {
                continue;
            };
            if field.at_cell(e) & enemy != 0 && field.is_valid(side, t, SHOTS[d]) {
                return Some((t, SHOTS[d]));
            }
        }
    }
    None
}

impl TankBot {
    fn new() -> Self {
        TankBot {
            player: TankMinimax::new(TABLE_BITS),
            tracker: None,
            last_cells: [None; 4],
            still: 0,
        }
    }

    /// Chooses this turn's answer.
    fn answer(&mut self, deadline: &Deadline) -> Result<Output, BotError> {
        let tracker = self
            .tracker
            .as_mut()
            .ok_or_else(|| BotError::new("no field yet"))?;
        let side = tracker.side();
        if tracker.field().is_over() {
            let answer = tracker.answer([TankAction::Stay; 2]);
            return Ok(Output::new(answer).with_debug("game over"));
        }
        let cells: [Option<usize>; 4] = std::array::from_fn(|i| tracker.field().tank_cell(i));
        if cells == self.last_cells {
            self.still += 1;
        } else {
            self.still = 0;
            self.last_cells = cells;
        }
        let result = self.player.choose(tracker.field_mut(), side, deadline);
        let mut pair = result.best.0;
        let mut broke = "";
        if let Some(n) = break_after() {
            if self.still >= n && result.value.abs() < 300 {
                if let Some((t, shot)) = lock_break(tracker.field(), side) {
                    pair[t] = shot;
                    self.still = 0;
                    broke = " break";
                }
            }
        }
        let debug = format!(
            "depth {}, nodes {}, value {}, {} ms{broke}",
            result.depth,
            result.nodes,
            result.value,
            deadline.elapsed().as_millis()
        );
        Ok(Output::new(tracker.answer(pair)).with_debug(debug))
    }
}

impl Bot for TankBot {
    fn on_input(&mut self, input: &Input, deadline: &Deadline) -> Result<Output, BotError> {
        self.tracker = Some(Tracker::from_input(input)?);
        self.answer(deadline)
    }

    fn on_request(&mut self, request: &Value, deadline: &Deadline) -> Result<Output, BotError> {
        match self.tracker.as_mut() {
            Some(tracker) => tracker.follow(request, "request")?,
            None => self.tracker = Some(Tracker::start(request, "request")?),
        }
        self.answer(deadline)
    }

    fn fallback(&self) -> Option<Value> {
        // Staying is always valid.
        Some(tank_protocol::answer([TankAction::Stay; 2]))
    }
}

fn main() -> ExitCode {
    protocol::run(&mut TankBot::new())
}
