//! Enclosure: random playouts (start to end and undone), one turn of the
//! rollout policy, and one apply/undo pair.

use std::hint::black_box;

use botzone::games::enclosure::search::rollout;
use botzone::games::enclosure::State;
use botzone::rng::Rng;
use criterion::{criterion_group, criterion_main, Criterion};

fn start() -> State {
    State::new([(2, 2), (8, 2), (2, 8), (8, 8)])
}

fn playouts(c: &mut Criterion) {
    let mut state = start();
    let mut rng = Rng::new(1);
    let mut turns = 0u64;
    c.bench_function("enclosure random playout", |b| {
        b.iter(|| {
            let n = black_box(&mut state).random_playout(&mut rng);
            for _ in 0..n {
                state.undo();
            }
            turns += u64::from(n);
        })
    });
    assert!(turns > 0, "playouts played turns");
    assert_eq!(state, start(), "undo restored the start");

    let mut state = start();
    let mut played = 0u64;
    c.bench_function("enclosure policy rollout (to the end)", |b| {
        b.iter(|| {
            let n = rollout(black_box(&mut state), 100, &mut rng);
            for _ in 0..n {
                state.undo();
            }
            played += n as u64;
        })
    });
    assert!(played > 0, "rollouts played turns");
}

fn apply_undo(c: &mut Criterion) {
    let mut state = start();
    let joint = [botzone::games::enclosure::Command::STAY; 4];
    c.bench_function("enclosure apply + undo", |b| {
        b.iter(|| {
            state.apply_unchecked(black_box(&joint));
            assert!(state.undo());
        })
    });
}

criterion_group!(benches, playouts, apply_undo);
criterion_main!(benches);
