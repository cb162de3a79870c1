//! Referees speak Botzone's judge protocol: given `{"log":[…],"initdata":…}`
//! they answer `{"command":"request"|"finish","content":{…},"display":…}`.
//! The built-in ones call a game's judge function in-process; an external
//! one runs a judge program once per turn, as Botzone does.

use std::time::{Duration, Instant};

use serde_json::Value;

use super::process::{BotProcess, Limits, ReadOutcome, Want};

/// A judge, as the match driver sees it.
pub trait Referee: Send {
    /// Answers one judge-protocol input, as the judge program would.
    ///
    /// # Errors
    /// When the judge fails (a broken external judge, an unreadable log).
    fn respond(&mut self, input: &Value) -> Result<Value, String>;
}

/// A built-in judge: a game's judge function.
pub struct Builtin(pub fn(&Value) -> Result<Value, String>);

impl Referee for Builtin {
    fn respond(&mut self, input: &Value) -> Result<Value, String> {
        (self.0)(input)
    }
}

/// A judge program, run afresh for every turn (`sh -c COMMAND`).
pub struct External {
    /// The command line.
    pub command: String,
    /// How long one judge call may take.
    pub timeout: Duration,
}

impl Referee for External {
    fn respond(&mut self, input: &Value) -> Result<Value, String> {
        let limits = Limits {
            time: self.timeout,
            memory: 0,
            output: 64 << 20,
            cpu_clock: false,
        };
        let mut p = BotProcess::spawn(&self.command, &limits)
            .map_err(|e| format!("judge `{}`: {e}", self.command))?;
        p.send(&format!("{input}\n"));
        p.close_input();
        let deadline = Instant::now() + self.timeout;
        let text = match p.read(Want::BotzoneTurn, deadline, limits.output) {
            ReadOutcome::Eof(t) => t,
            ReadOutcome::Answer { text, .. } => text,
            ReadOutcome::Timeout => return Err(format!("judge `{}` timed out", self.command)),
            ReadOutcome::Overflow => {
                return Err(format!("judge `{}` printed too much", self.command))
            }
        };
        if let Some(exit) = p.wait_until(deadline) {
            if !exit.success() {
                return Err(format!(
                    "judge `{}` failed ({exit:?}): {}",
                    self.command,
                    p.stderr_tail().trim()
                ));
            }
        }
        let trimmed = text.trim();
        serde_json::from_str(trimmed)
            .or_else(|_| {
                let line = trimmed.lines().next().unwrap_or("");
                serde_json::from_str(line)
            })
            .map_err(|e| {
                format!(
                    "judge `{}` answered no JSON ({e}): {trimmed:.200}",
                    self.command
                )
            })
    }
}
