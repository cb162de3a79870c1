//! Turn deadlines: a clock that starts when the request has been read.

use std::time::{Duration, Instant};

/// The environment variable that overrides a turn's time limit (seconds,
/// e.g. `0.2`) for local runs and tests.
pub const TIME_LIMIT_VAR: &str = "BOTZONE_TIME_LIMIT";

/// The environment variable that fixes a search's budget to a number of
/// iterations (rollouts, nodes) per turn, for reproducible runs: with
/// `BOTZONE_SEED` as well, a bot's answers no longer depend on the machine's
/// speed. The deadline still applies.
pub const ITERATIONS_VAR: &str = "BOTZONE_ITERATIONS";

/// The iteration budget in `BOTZONE_ITERATIONS`, if it holds a positive
/// integer.
pub fn iteration_budget() -> Option<u64> {
    std::env::var(ITERATIONS_VAR)
        .ok()?
        .trim()
        .parse()
        .ok()
        .filter(|&n| n > 0)
}

/// Botzone's time limit per turn for the language the bot runs as: 1 s for
/// C/C++ (and what we assume for a native Rust bot), 2 s for JavaScript,
/// which is how a bot compiled to WebAssembly reaches Botzone (`botzone
/// bundle --target js`: a `.js` file run by Node.js).
#[cfg(not(target_family = "wasm"))]
pub const DEFAULT_LIMIT: Duration = Duration::from_secs(1);
/// Botzone's time limit per turn for the language the bot runs as: 1 s for
/// C/C++ (and what we assume for a native Rust bot), 2 s for JavaScript,
/// which is how a bot compiled to WebAssembly reaches Botzone (`botzone
/// bundle --target js`: a `.js` file run by Node.js).
#[cfg(target_family = "wasm")]
pub const DEFAULT_LIMIT: Duration = Duration::from_secs(2);

/// The environment variable in which a runtime that starts the bot tells
/// how long it spent before the bot's `main` (seconds, e.g. `0.085`): the
/// JavaScript loader of `botzone bundle --target js` puts Node.js's start-up
/// and the module's compilation there. The protocol subtracts it from the
/// first deadline of the process, since the judge's clock was running.
pub const STARTUP_VAR: &str = "BOTZONE_STARTUP_SECONDS";

/// The time spent before `main` as [`STARTUP_VAR`] reports it (zero when
/// unset or not a sane number of seconds).
pub fn startup_spent() -> Duration {
    std::env::var(STARTUP_VAR)
        .ok()
        .and_then(|s| s.trim().parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s > 0.0 && *s < 1e6)
        .map(Duration::from_secs_f64)
        .unwrap_or(Duration::ZERO)
}

/// The time limit of a turn: `BOTZONE_TIME_LIMIT` when set, else the
/// input's `time_limit` (seconds) when present, else Botzone's 1 s; doubled
/// on the first turn of a match unless the environment fixed it.
pub fn turn_limit(input_limit: Option<f64>, first_turn: bool) -> Duration {
    if let Some(env) = env_limit() {
        return env;
    }
    let base = input_limit
        .filter(|s| s.is_finite() && *s > 0.0)
        .map(Duration::from_secs_f64)
        .unwrap_or(DEFAULT_LIMIT);
    if first_turn {
        base * 2
    } else {
        base
    }
}

/// The limit in `BOTZONE_TIME_LIMIT`, if it holds a positive number of seconds.
pub fn env_limit() -> Option<Duration> {
    let s = std::env::var(TIME_LIMIT_VAR).ok()?;
    let secs: f64 = s.trim().parse().ok()?;
    if secs.is_finite() && secs > 0.0 && secs < 1e9 {
        Some(Duration::from_secs_f64(secs))
    } else {
        None
    }
}

/// A point in time by which a bot must have answered.
#[derive(Clone, Copy, Debug)]
pub struct Deadline {
    start: Instant,
    budget: Duration,
}

impl Deadline {
    /// A deadline `budget` from now.
    pub fn after(budget: Duration) -> Self {
        Deadline {
            start: Instant::now(),
            budget,
        }
    }

    /// A deadline for a turn with the given limit, keeping a safety margin
    /// for start-up, output and the judge's own measurement: 15% of the limit
    /// plus 30 ms, never less than a quarter of the limit.
    pub fn for_turn(limit: Duration) -> Self {
        let margin = limit.mul_f64(0.15) + Duration::from_millis(30);
        let budget = limit.saturating_sub(margin).max(limit / 4);
        Deadline::after(budget)
    }

    /// When the clock started.
    pub fn start(&self) -> Instant {
        self.start
    }

    /// The whole budget.
    pub fn budget(&self) -> Duration {
        self.budget
    }

    /// Time since the start.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Time left (zero once passed).
    pub fn remaining(&self) -> Duration {
        self.budget.saturating_sub(self.start.elapsed())
    }

    /// Whether the deadline has passed.
    #[inline]
    pub fn passed(&self) -> bool {
        self.start.elapsed() >= self.budget
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn startup_is_read_from_the_environment() {
        // The variable is not set in tests: nothing to subtract.
        if std::env::var_os(STARTUP_VAR).is_none() {
            assert_eq!(startup_spent(), Duration::ZERO);
        }
    }

    #[test]
    fn margins() {
        let d = Deadline::for_turn(Duration::from_secs(1));
        assert_eq!(d.budget(), Duration::from_millis(820));
        let d = Deadline::for_turn(Duration::from_millis(40));
        assert_eq!(d.budget(), Duration::from_millis(10));
        assert!(!Deadline::after(Duration::from_secs(5)).passed());
        assert!(Deadline::after(Duration::ZERO).passed());
    }
}
