//! The smallest bot on the SDK: it answers every request with the turn
//! number and the request itself, stays running between turns, and saves
//! the turn count in `data` for traditional mode. A template for a new game
//! and a protocol test subject.
//!
//! ```text
//! $ echo '{"requests":[{"x":1}],"responses":[]}' | cargo run --bin echo_bot
//! {"response":{"turn":1,"request":{"x":1}},"debug":"turn 1","data":"1"}
//! >>>BOTZONE_REQUEST_KEEP_RUNNING<<<
//! ```

use std::process::ExitCode;

use botzone::json::{self, Value};
use botzone::protocol::{self, At, Bot, BotError, Input, Output};
use botzone::time::Deadline;

/// Counts turns and echoes requests.
struct EchoBot {
    turn: usize,
}

impl EchoBot {
    fn answer(&self, request: &Value) -> Output {
        let response = json::object([
            ("turn", Value::from(self.turn)),
            ("request", request.clone()),
        ]);
        Output::new(response)
            .with_debug(format!("turn {}", self.turn))
            .with_data(self.turn.to_string())
    }
}

impl Bot for EchoBot {
    fn on_input(&mut self, input: &Input, _deadline: &Deadline) -> Result<Output, BotError> {
        // Every response so far must be one of ours: an object with "turn".
        for (i, response) in input.responses.iter().enumerate() {
            At::root(response, &format!("responses[{i}]"))
                .key("turn")?
                .int_in(1, i64::MAX)?;
        }
        self.turn = input.requests.len();
        Ok(self.answer(input.request()))
    }

    fn on_request(&mut self, request: &Value, _deadline: &Deadline) -> Result<Output, BotError> {
        self.turn += 1;
        Ok(self.answer(request))
    }

    fn fallback(&self) -> Option<Value> {
        Some(json::object([("turn", Value::from(0))]))
    }
}

fn main() -> ExitCode {
    protocol::run(&mut EchoBot { turn: 0 })
}
