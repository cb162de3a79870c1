//! `botzone` subcommands for pacman2: the judge's map of a seed, and the
//! C++ sample's benchmark work.

use std::time::{Duration, Instant};

use botzone::games::pacman2::{Map, Pacman2};
use botzone::rng::Rng;

use crate::bench::BenchReport;
use crate::CliError;

/// The judge's initdata for `seed`, as one JSON line (the fields and order
/// of the judge: `GENERATOR_INTERVAL`, `LARGE_FRUIT_DURATION`,
/// `LARGE_FRUIT_ENHANCEMENT`, `SKILL_COST`, `content`, `height`, `seed`,
/// `static`, `width`).
pub fn map_json(seed: u32) -> Result<String, CliError> {
    Ok(Map::generate(seed).to_json())
}

/// The sample's `RandomPlay` on the map of `seed` for `budget`: from the
/// start, every live player takes a uniformly random valid action each turn
/// until the game ends, the final scores are computed, and the game is
/// taken back to the start (one [`Pacman2::undo_to`], where the sample
/// pops its stack turn by turn); repeated.
pub fn bench(seed: u32, budget: Duration) -> Result<BenchReport, CliError> {
    let map = Map::generate(seed);
    let mut game = Pacman2::new(&map);
    let mut rng = Rng::new(u64::from(seed));
    let mut report = BenchReport::default();
    let mut checksum = 0.0;
    let start = Instant::now();
    loop {
        for _ in 0..256 {
            let (turns, score) = playout(&mut game, &mut rng);
            report.turns += turns as u64;
            checksum += score;
        }
        report.playouts += 256;
        if start.elapsed() >= budget {
            break;
        }
    }
    report.elapsed = start.elapsed();
    if game.turn() != 0 || !checksum.is_finite() {
        return Err("pacman2 bench: the playouts did not return to the start".into());
    }
    Ok(report)
}

/// One playout: random valid actions to the end, player 0's score, then
/// back to the start.
#[inline]
fn playout(game: &mut Pacman2, rng: &mut Rng) -> (usize, f64) {
    let turns = game.random_rollout(rng);
    let score = game.final_scores()[0];
    game.undo_to(0);
    (turns, score)
}
