//! `tank_minimax`: a Tank (2018) bot. Iterative-deepening alpha-beta over
//! joint actions (our two tanks' pair, then the opponent's reply, judged
//! conservatively) with a real evaluation, move ordering that drops shots
//! dominated by staying, a preallocated transposition table and the turn's
//! deadline (`botzone::games::tank::eval::TankMinimax`). Its `debug` reports
//! the depth reached and the nodes searched. It never answers an invalid
//! action.
//!
//! In a position that the opponent has met twice before with the same
//! pair both times, it expects that pair again and answers it at the root
//! instead of the worst reply (`botzone::search::repeat`), as long as such
//! predictions have come true; `debug` then starts with the expected pair.
//! `TANK_EXPECT=0` in its environment turns that off (max-min on every
//! turn, as before 2026-12-02: docs/strength.md).
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
use botzone::search::repeat::repeated_reply;
use botzone::time::Deadline;

/// Transposition table size: 2^20 entries (about 24 MB).
const TABLE_BITS: u32 = 20;

struct TankBot {
    player: TankMinimax,
    /// The match so far (`None` before the first request).
    tracker: Option<Tracker>,
    /// Whether repeated replies are expected and answered (unless
    /// `TANK_EXPECT=0`).
    expect: bool,
}

impl TankBot {
    fn new() -> Self {
        TankBot {
            player: TankMinimax::new(TABLE_BITS),
            tracker: None,
            expect: std::env::var("TANK_EXPECT").as_deref() != Ok("0"),
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
        let expected = if self.expect {
            repeated_reply(tracker.opponent_moves(), tracker.field().position_key())
        } else {
            None
        };
        self.player.expect_reply(expected);
        let result = self.player.choose(tracker.field_mut(), side, deadline);
        let expecting = match expected {
            Some(pair) => format!("expecting [{}, {}], ", pair.0[0].code(), pair.0[1].code()),
            None => String::new(),
        };
        let debug = format!(
            "{expecting}depth {}, nodes {}, value {}, {} ms",
            result.depth,
            result.nodes,
            result.value,
            deadline.elapsed().as_millis()
        );
        Ok(Output::new(tracker.answer(result.best.0)).with_debug(debug))
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
