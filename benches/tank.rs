//! Tank: random playouts (the work of the C++ sample's `tank_bench`: every
//! live tank a uniformly random valid action until the game ends, then undo
//! back to the start), and the parts of a turn on their own.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};

use botzone::games::tank::{bricks_from_seed, Field, SideActions};
use botzone::rng::Rng;

fn playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("tank");
    group.throughput(Throughput::Elements(1));
    let mut field = Field::new(bricks_from_seed(1));
    let mut rng = Rng::new(1);
    group.bench_function("playout_and_undo/seed1", |b| {
        b.iter(|| {
            let turns = field.random_playout(&mut rng);
            assert!(turns > 0 && field.is_over());
            for _ in 0..turns {
                field.undo();
            }
            black_box(turns)
        })
    });
    assert_eq!(field.turn(), 0);

    let mut rng = Rng::new(2);
    group.bench_function("random_turn", |b| {
        b.iter(|| black_box(black_box(&field).random_turn(&mut rng)))
    });

    let mut rng = Rng::new(3);
    let joint = field.random_turn(&mut rng);
    group.bench_function("apply_undo", |b| {
        b.iter(|| {
            field.apply_unchecked(black_box(joint));
            assert!(field.undo());
        })
    });

    let mut list = SideActions::new();
    group.bench_function("legal_side_actions", |b| {
        b.iter(|| {
            black_box(&field).legal_side_actions(0, &mut list);
            assert!(!list.is_empty());
            black_box(list.len())
        })
    });
    group.finish();
}

criterion_group!(benches, playouts);
criterion_main!(benches);
