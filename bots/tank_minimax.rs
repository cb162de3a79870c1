//! `tank_minimax`: a Tank (2018) bot. Iterative-deepening alpha-beta over
//! joint actions (our two tanks' pair, then the opponent's reply, judged
//! conservatively) with a real evaluation, move ordering, a preallocated
//! transposition table and the turn's deadline
//! (`botzone::games::tank::eval::TankMinimax`). Its `debug` reports the depth
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
//! {"response":[6,-1],"debug":"depth 2, nodes 35211, value -40, 213 ms"}
//! >>>BOTZONE_REQUEST_KEEP_RUNNING<<<
//! ```

use std::process::ExitCode;

use botzone::games::tank::eval::TankMinimax;
use botzone::games::tank::{Field, TankAction, BLUE};
use botzone::json::Value;
use botzone::protocol::{self, At, Bot, BotError, Input, Output};
use botzone::time::Deadline;

/// Transposition table size: 2^20 entries (about 24 MB).
const TABLE_BITS: u32 = 20;

struct TankBot {
    player: TankMinimax,
    /// The game so far, and our side; `None` before the first request.
    game: Option<(Field, usize)>,
    /// Our answer of last turn, to pair with the opponent's actions.
    pending: [TankAction; 2],
}

impl TankBot {
    fn new() -> Self {
        TankBot {
            player: TankMinimax::new(TABLE_BITS),
            game: None,
            pending: [TankAction::Stay; 2],
        }
    }

    /// Decodes the first request: the field and our side.
    fn start(request: &At) -> Result<(Field, usize), BotError> {
        let field = request.key("field")?;
        let mut bricks = [0u32; 3];
        for (i, b) in bricks.iter_mut().enumerate() {
            *b = field.index(i)?.int_in(0, (1 << 27) - 1)? as u32;
        }
        if field.array()?.len() != 3 {
            return Err(BotError::new(format!(
                "{}: expected 3 ints, found {}",
                field.path(),
                field.array()?.len()
            )));
        }
        let side = request.key("mySide")?.int_in(0, 1)? as usize;
        Ok((Field::new(bricks), side))
    }

    /// Decodes a pair of actions `[a0, a1]` for `side`, checked against the
    /// field (a destroyed tank's entry is ignored, as the judge does).
    fn pair(at: &At, field: &Field, side: usize) -> Result<[TankAction; 2], BotError> {
        let items = at.array()?;
        if items.len() != 2 {
            return Err(BotError::new(format!(
                "{}: expected 2 actions, found {}",
                at.path(),
                items.len()
            )));
        }
        let mut out = [TankAction::Stay; 2];
        for (t, a) in out.iter_mut().enumerate() {
            let slot = at.index(t)?;
            let code = slot.int_in(-1, 7)?;
            let action = TankAction::from_code(code).expect("checked range");
            if field.tank_alive(side, t) {
                if !field.is_valid(side, t, action) {
                    let name = if side == BLUE { "blue" } else { "red" };
                    return Err(BotError::new(format!(
                        "{}: {name} tank {t} cannot play {code} on turn {}",
                        slot.path(),
                        field.turn() + 1
                    )));
                }
                *a = action;
            }
        }
        Ok(out)
    }

    /// Plays last turn (our pending answer and the opponent's `request`).
    fn play_turn(&mut self, request: &At, ours: [TankAction; 2]) -> Result<(), BotError> {
        let (field, side) = self
            .game
            .as_mut()
            .ok_or_else(|| BotError::new(format!("{}: no field yet", request.path())))?;
        let side = *side;
        let theirs = Self::pair(request, field, 1 - side)?;
        if field.is_over() {
            return Err(BotError::new(format!(
                "{}: the game is already over",
                request.path()
            )));
        }
        let mut joint = [[TankAction::Stay; 2]; 2];
        joint[side] = ours;
        joint[1 - side] = theirs;
        field
            .try_apply(joint)
            .map_err(|e| BotError::new(format!("{}: {e}", request.path())))
    }

    /// Chooses this turn's answer.
    fn answer(&mut self, deadline: &Deadline) -> Result<Output, BotError> {
        let (field, side) = self
            .game
            .as_mut()
            .ok_or_else(|| BotError::new("no field yet"))?;
        let side = *side;
        if field.is_over() {
            self.pending = [TankAction::Stay; 2];
            return Ok(Output::new(pair_json(self.pending)).with_debug("game over"));
        }
        let result = self.player.choose(field, side, deadline);
        self.pending = result.best.0;
        let debug = format!(
            "depth {}, nodes {}, value {}, {} ms",
            result.depth,
            result.nodes,
            result.value,
            deadline.elapsed().as_millis()
        );
        Ok(Output::new(pair_json(self.pending)).with_debug(debug))
    }
}

fn pair_json(pair: [TankAction; 2]) -> Value {
    Value::Array(vec![
        Value::from(i64::from(pair[0].code())),
        Value::from(i64::from(pair[1].code())),
    ])
}

impl Bot for TankBot {
    fn on_input(&mut self, input: &Input, deadline: &Deadline) -> Result<Output, BotError> {
        self.game = None;
        let first = At::root(&input.requests[0], "requests[0]");
        self.game = Some(Self::start(&first)?);
        for i in 1..input.requests.len() {
            let (field, side) = self.game.as_ref().expect("set above");
            let response = At::root(&input.responses[i - 1], &format!("responses[{}]", i - 1));
            let ours = Self::pair(&response, field, *side)?;
            let request = At::root(&input.requests[i], &format!("requests[{i}]"));
            self.play_turn(&request, ours)?;
        }
        self.answer(deadline)
    }

    fn on_request(&mut self, request: &Value, deadline: &Deadline) -> Result<Output, BotError> {
        let at = At::root(request, "request");
        if request.as_object().is_some() {
            // A new match in the same process: start again.
            self.game = Some(Self::start(&at)?);
        } else {
            self.play_turn(&at, self.pending)?;
        }
        self.answer(deadline)
    }

    fn fallback(&self) -> Option<Value> {
        // Staying is always valid.
        Some(pair_json([TankAction::Stay; 2]))
    }
}

fn main() -> ExitCode {
    protocol::run(&mut TankBot::new())
}
