//! Tank search benchmark: how much work `tank_minimax`'s search
//! (`search::alphabeta` with `games::tank::eval::TankEval`) needs to finish
//! a fixed depth, on positions from real play.
//!
//! For each judge map (seeds 1, 2, …) two greedy players (the best
//! evaluation one turn ahead, the other side staying) play the game; at
//! turns 4, 8, 12, 16, 24 and 40 the position is searched to the
//! given depth by both sides with an empty transposition table. It prints
//! one line per search (nodes, milliseconds, value, best action) and the
//! totals: nodes, seconds, nodes per second, and a checksum of every value
//! and best action, which a change that only makes the search faster must
//! leave as it was.
//!
//! ```text
//! cargo run --release --example tank_search_bench -- 20 4
//! ```
//!
//! Arguments: the number of maps (default 20) and the depth (default 4).

use std::time::{Duration, Instant};

use botzone::games::tank::eval::TankEval;
use botzone::games::tank::{bricks_from_seed, Field, SideAction, SideActions};
use botzone::search::alphabeta::Evaluator;
use botzone::search::alphabeta::{AlphaBeta, Limits};
use botzone::time::Deadline;

const CHECKPOINTS: [u32; 6] = [4, 8, 12, 16, 24, 40];

fn main() {
    let mut args = std::env::args().skip(1);
    let mut number = |default: u32, what: &str| match args.next() {
        None => default,
        Some(a) => a.parse().unwrap_or_else(|_| {
            eprintln!("tank_search_bench: {what}: expected a number, found {a:?}");
            std::process::exit(2)
        }),
    };
    let maps = number(20, "maps");
    let depth = number(4, "depth");
    let far = Deadline::after(Duration::from_secs(3600));
    let mut play_eval = TankEval::new();
    let mut search = AlphaBeta::<Field>::new(20);
    let mut eval = TankEval::new();
    let (mut nodes, mut time, mut checksum, mut searches) = (0u64, 0f64, 0u64, 0);
    for seed in 1..=maps {
        let mut field = Field::new(bricks_from_seed(seed));
        while !field.is_over() {
            let turn = field.turn();
            if CHECKPOINTS.contains(&turn) {
                for side in 0..2 {
                    search.clear();
                    let limits = Limits {
                        max_depth: depth,
                        max_nodes: None,
                    };
                    let start = Instant::now();
                    let r = search.search(&mut field, side, &mut eval, &far, limits);
                    let secs = start.elapsed().as_secs_f64();
                    println!(
                        "seed {seed:3} turn {turn:2} side {side}: depth {}, nodes {:9}, {:8.1} ms, value {:6}, best {:?}",
                        r.depth,
                        r.nodes,
                        secs * 1e3,
                        r.value,
                        r.best.0.map(|a| a.code())
                    );
                    nodes += r.nodes;
                    time += secs;
                    searches += 1;
                    checksum = mix(checksum, r.value as u64);
                    checksum = mix(checksum, code(r.best));
                }
            }
            if turn >= *CHECKPOINTS.last().expect("checkpoints") {
                break;
            }
            let a = greedy(&mut field, 0, &mut play_eval);
            let b = greedy(&mut field, 1, &mut play_eval);
            field.apply_unchecked([a.0, b.0]);
        }
    }
    println!(
        "{searches} searches to depth {depth}: {nodes} nodes in {time:.2} s, {:.0} nodes/s, {:.1} ms a search, checksum {checksum:016x}",
        nodes as f64 / time,
        time * 1e3 / f64::from(searches.max(1)),
    );
}

/// The action of `side` with the best evaluation after one turn in which
/// the opponent stays (the first in the legal order among equals): a
/// player that does not depend on the search measured.
fn greedy(field: &mut Field, side: usize, eval: &mut TankEval) -> SideAction {
    let mut actions = SideActions::new();
    field.legal_side_actions(side, &mut actions);
    let mut best = (i32::MIN, SideAction::default());
    for &a in actions.iter() {
        let mut joint = [SideAction::default().0; 2];
        joint[side] = a.0;
        field.apply_unchecked(joint);
        let v = if field.is_over() {
            eval.terminal(field, side)
        } else {
            eval.value(field, side)
        };
        field.undo();
        if v > best.0 {
            best = (v, a);
        }
    }
    best.1
}

fn code(a: SideAction) -> u64 {
    a.0.iter()
        .fold(0, |acc, t| acc * 16 + (t.code() + 1) as u64)
}

fn mix(h: u64, x: u64) -> u64 {
    (h ^ x).wrapping_mul(0x100_0000_01b3).rotate_left(17)
}
