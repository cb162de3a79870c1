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

/// Botzone's time limit per turn for C/C++ (and what we assume for Rust).
pub const DEFAULT_LIMIT: Duration = Duration::from_secs(1);

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
    fn margins() {
        let d = Deadline::for_turn(Duration::from_secs(1));
        assert_eq!(d.budget(), Duration::from_millis(820));
        let d = Deadline::for_turn(Duration::from_millis(40));
        assert_eq!(d.budget(), Duration::from_millis(10));
        assert!(!Deadline::after(Duration::from_secs(5)).passed());
        assert!(Deadline::after(Duration::ZERO).passed());
    }
}
