//! `botzone` subcommands for Tank: the judge's field of a seed, and the
//! C++ sample's random-playout benchmark.

use std::time::{Duration, Instant};

use botzone::games::tank::{bricks_from_seed, Field, MAX_TURN};
use botzone::rng::Rng;

use crate::bench::BenchReport;
use crate::CliError;

/// The judge's initdata for `seed`, as one JSON line:
/// `{"field":[b0,b1,b2],"maxTurn":100,"seed":N}`.
pub fn map_json(seed: u32) -> Result<String, CliError> {
    let [b0, b1, b2] = bricks_from_seed(seed);
    Ok(format!(
        "{{\"field\":[{b0},{b1},{b2}],\"maxTurn\":{MAX_TURN},\"seed\":{seed}}}"
    ))
}

/// The work of `tank_bench` (../shared/reference/tank_bench.cpp) on the
/// field of `seed`: from the start, every live tank takes a uniformly random
/// valid action each turn until the game ends, then every turn is undone;
/// repeated for `budget`.
pub fn bench(seed: u32, budget: Duration) -> Result<BenchReport, CliError> {
    let mut field = Field::new(bricks_from_seed(seed));
    let start_key = field.key();
    let mut rng = Rng::new(1);
    let mut report = BenchReport::default();
    let t0 = Instant::now();
    loop {
        // Check the clock every 64 playouts (a playout takes microseconds).
        for _ in 0..64 {
            let turns = field.random_playout(&mut rng);
            for _ in 0..turns {
                field.undo();
            }
            report.playouts += 1;
            report.turns += u64::from(turns);
        }
        let elapsed = t0.elapsed();
        if elapsed >= budget {
            report.elapsed = elapsed;
            break;
        }
    }
    if field.key() != start_key || field.history_len() != 0 {
        return Err("tank bench: undo did not restore the start".into());
    }
    Ok(report)
}
