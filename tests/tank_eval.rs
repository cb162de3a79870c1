//! The Tank search's pruning of wasted shots is sound: on positions from
//! random games, a fixed-depth search finds the same value with and without
//! it (a pruned shot is never better than staying), and pruning does cut
//! the tree.

use std::time::Duration;

use botzone::games::tank::eval::TankEval;
use botzone::games::tank::{bricks_from_seed, Field};
use botzone::rng::Rng;
use botzone::search::alphabeta::{AlphaBeta, Limits};
use botzone::time::Deadline;

/// A fixed-depth search of `field` for `side`: (value, nodes).
fn search(field: &mut Field, side: usize, prune: bool, depth: u32) -> (i32, u64) {
    let mut search = AlphaBeta::new(16);
    let mut eval = TankEval::new();
    eval.prune = prune;
    let limits = Limits {
        max_depth: depth,
        max_nodes: None,
    };
    let deadline = Deadline::after(Duration::from_secs(3600));
    let result = search.search(field, side, &mut eval, &deadline, limits);
    assert_eq!(result.depth, depth, "the search finished its depth");
    (result.value, result.nodes)
}

#[test]
fn pruning_wasted_shots_keeps_every_searched_value_and_cuts_the_tree() {
    let mut rng = Rng::new(7);
    let (mut pruned_nodes, mut full_nodes, mut positions) = (0, 0, 0);
    for seed in 1..=12u32 {
        let mut field = Field::new(bricks_from_seed(seed));
        // Random turns into the game, checking a position every few turns.
        for turn in 0..30 {
            if field.is_over() {
                break;
            }
            if turn % 6 == 5 {
                for side in 0..2 {
                    let (with, n_with) = search(&mut field, side, true, 2);
                    let (without, n_without) = search(&mut field, side, false, 2);
                    assert_eq!(
                        with, without,
                        "seed {seed}, turn {turn}, side {side}: pruning changed the value"
                    );
                    pruned_nodes += n_with;
                    full_nodes += n_without;
                    positions += 1;
                }
            }
            let turn_actions = field.random_turn(&mut rng);
            field.apply_unchecked(turn_actions);
        }
    }
    assert!(positions >= 20, "only {positions} positions checked");
    assert!(
        pruned_nodes < full_nodes,
        "pruning searched {pruned_nodes} nodes, no fewer than {full_nodes}"
    );
}
