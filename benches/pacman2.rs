//! Pacman2 rollouts with criterion: the C++ sample's benchmark work (random
//! valid actions for every live player to the end of the game, the scores,
//! then back to the start with one `undo_to`, as `botzone bench` does) on
//! judge maps; the same popping turn by turn like the sample; a single
//! turn's apply plus undo; and the rollouts of `pacman_mc`'s search (20
//! turns of `pacman2::policy::GreedyPolicy` for every player, then
//! `pacman2::policy::evaluate`, then back to the start).
//!
//! `cargo bench --bench pacman2`

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};

use botzone::games::pacman2::policy::{evaluate, GreedyPolicy};
use botzone::games::pacman2::{Action, Map, Pacman2, PLAYERS};
use botzone::rng::Rng;

fn playout(game: &mut Pacman2, rng: &mut Rng) -> (u32, f64) {
    let turns = game.random_playout(rng);
    let score = game.final_scores()[0];
    game.undo_to(0);
    (turns, score)
}

fn playout_turn_by_turn(game: &mut Pacman2, rng: &mut Rng) -> (u32, f64) {
    let turns = game.random_playout(rng);
    let score = game.final_scores()[0];
    while game.undo() {}
    (turns, score)
}

/// Turns of a policy rollout, as in `pacman_mc`.
const POLICY_DEPTH: u32 = 20;

fn policy_rollout(game: &mut Pacman2, policy: &GreedyPolicy, rng: &mut Rng) -> (u32, f64) {
    let mut turns = 0;
    while turns < POLICY_DEPTH && !game.is_over() {
        let joint = policy.joint(game, rng);
        game.apply_unchecked(&joint);
        turns += 1;
    }
    let value = evaluate(game, 0);
    game.undo_to(0);
    (turns, value)
}

fn rollouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("pacman2");
    group.throughput(Throughput::Elements(1));
    for seed in [1u32, 2, 3] {
        let map = Map::generate(seed);
        let mut game = Pacman2::new(&map);
        let mut rng = Rng::new(u64::from(seed));
        // A bench that silently does nothing fails here.
        let (turns, _) = playout(&mut game, &mut rng);
        assert!(turns > 0 && game.turn() == 0);
        group.bench_function(format!("playout_seed{seed}"), |b| {
            b.iter(|| black_box(playout(black_box(&mut game), &mut rng)))
        });
    }
    let map = Map::generate(1);
    let mut game = Pacman2::new(&map);
    let mut rng = Rng::new(1);
    let (turns, _) = playout_turn_by_turn(&mut game, &mut rng);
    assert!(turns > 0 && game.turn() == 0);
    group.bench_function("playout_turn_by_turn_seed1", |b| {
        b.iter(|| black_box(playout_turn_by_turn(black_box(&mut game), &mut rng)))
    });
    let map = Map::generate(1);
    let mut game = Pacman2::new(&map);
    let joint = [Action::Right, Action::Left, Action::Stay, Action::Down];
    game.try_apply(&joint).unwrap();
    assert!(game.undo());
    group.bench_function("apply_undo", |b| {
        b.iter(|| {
            game.apply_unchecked(black_box(&joint[..PLAYERS]));
            game.undo()
        })
    });
    for seed in [1u32, 2, 3] {
        let mut game = Pacman2::new(&Map::generate(seed));
        let policy = GreedyPolicy::new(&game);
        let mut rng = Rng::new(u64::from(seed));
        let (turns, _) = policy_rollout(&mut game, &policy, &mut rng);
        assert!(turns > 0 && game.turn() == 0, "seed {seed}: {turns} turns");
        group.bench_function(format!("policy_rollout_seed{seed}"), |b| {
            b.iter(|| black_box(policy_rollout(black_box(&mut game), &policy, &mut rng)))
        });
    }
    group.finish();
}

criterion_group!(benches, rollouts);
criterion_main!(benches);
