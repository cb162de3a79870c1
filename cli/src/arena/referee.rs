//! Referees speak Botzone's judge protocol: given `{"log":[…],"initdata":…}`
//! they answer `{"command":"request"|"finish","content":{…},"display":…}`.
//! The built-in one calls the library's judge of the game in-process
//! ([`botzone::games::botzone::judge`]); an external one runs a judge
//! program once per turn, as Botzone does.

use std::marker::PhantomData;
use std::time::{Duration, Instant};

use botzone::games::botzone::{self as protocol, BotzoneGame};
use botzone::games::line::LineGame;
use botzone::games::registry::Visitor;
use serde_json::Value;

use super::process::{BotProcess, Limits, ReadOutcome, Want};
use crate::json::{from_core, to_core};

/// A judge, as the match driver sees it.
pub trait Referee: Send {
    /// Answers one judge-protocol input, as the judge program would.
    ///
    /// # Errors
    /// When the judge fails (a broken external judge, an unreadable log).
    fn respond(&mut self, input: &Value) -> Result<Value, String>;
}

/// The library's judge of `G`, in-process.
pub struct Builtin<G>(PhantomData<fn() -> G>);

impl<G> Builtin<G> {
    /// The judge of `G`.
    pub fn new() -> Self {
        Builtin(PhantomData)
    }
}

impl<G: BotzoneGame> Referee for Builtin<G> {
    fn respond(&mut self, input: &Value) -> Result<Value, String> {
        protocol::judge::<G>(&to_core(input))
            .map(|out| from_core(&out))
            .map_err(|e| e.to_string())
    }
}

/// One call of the library's judge of a game kind (`botzone judge`).
pub struct JudgeOnce<'a>(pub &'a Value);

impl Visitor for JudgeOnce<'_> {
    type Output = Result<Value, String>;
    fn botzone<G: BotzoneGame>(self) -> Self::Output {
        Builtin::<G>::new().respond(self.0)
    }
    fn line<G: LineGame>(self) -> Self::Output {
        Err(format!("{} has no Botzone judge", G::NAME))
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
                p.drain_stderr();
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
