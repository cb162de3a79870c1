//! The Tank evaluation's parts: the search's pruning of wasted shots is
//! sound (on positions from random games, a fixed-depth search finds the
//! same value with and without it: a pruned shot is never better than
//! staying), and pruning does cut the tree; the attack-time maps are the
//! shortest ways that a plain relaxation finds, with the enemy's guards
//! slowing an attack for the side the value is for; the race lead goes to
//! the side whose quickest attack lands first; and a search allocates
//! nothing once its searcher and evaluation are built (with an expected
//! reply too).

mod common;

use std::time::Duration;

use botzone::games::tank::eval::TankEval;
use botzone::games::tank::{
    bricks_from_seed, item, Field, SideAction, BASE_POS, CELLS, HEIGHT, WIDTH,
};
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

/// The attack-time map of `side`'s base by the rule written out plainly
/// (the evaluation's documentation): `2k + 1` turns from a cell in line
/// with the base with `k` bricks between, otherwise one turn per move into
/// an empty cell and two into a brick on the way to such a cell; steel and
/// bases block, tanks are ignored; 60 for never. Relaxed over and over
/// until nothing changes. With `guard` turns, a cell in line with the base
/// takes `guard` more from the first of `side`'s tanks in that line on
/// (its guard), and every cell beyond it too.
fn plain_attack_map(field: &Field, side: usize, guard: u8) -> [u8; CELLS] {
    const FAR: u8 = 60;
    let mut time = [FAR; CELLS];
    if !field.base_alive(side) {
        return time;
    }
    let blocks = |x: usize, y: usize| field.at(x, y) & (item::STEEL | item::BASE) != 0;
    let brick = |x: usize, y: usize| field.at(x, y) & item::BRICK != 0;
    let (bx, by) = BASE_POS[side];
    for (dx, dy) in [(0i32, -1i32), (1, 0), (0, 1), (-1, 0)] {
        let (mut x, mut y, mut k, mut extra) = (bx as i32, by as i32, 0u8, 0u8);
        loop {
            x += dx;
            y += dy;
            if x < 0 || y < 0 || x >= WIDTH as i32 || y >= HEIGHT as i32 {
                break;
            }
            let (ux, uy) = (x as usize, y as usize);
            if blocks(ux, uy) {
                break;
            }
            let guarded = (0..2).any(|t| field.at(ux, uy) & item::tank(side, t) != 0);
            if guarded {
                extra = guard;
            }
            let t = (2 * k + 1 + extra).min(FAR - 1);
            time[uy * WIDTH + ux] = time[uy * WIDTH + ux].min(t);
            k += u8::from(brick(ux, uy));
        }
    }
    loop {
        let mut changed = false;
        for c in 0..CELLS {
            let (x, y) = (c % WIDTH, c / WIDTH);
            if blocks(x, y) {
                continue;
            }
            let near = [
                (x > 0).then(|| c - 1),
                (x + 1 < WIDTH).then(|| c + 1),
                (y > 0).then(|| c - WIDTH),
                (y + 1 < HEIGHT).then(|| c + WIDTH),
            ];
            for n in near.into_iter().flatten() {
                let (nx, ny) = (n % WIDTH, n / WIDTH);
                if blocks(nx, ny) || time[n] >= FAR {
                    continue;
                }
                let t = time[n] + if brick(nx, ny) { 2 } else { 1 };
                if t < time[c] {
                    time[c] = t;
                    changed = true;
                }
            }
        }
        if !changed {
            return time;
        }
    }
}

#[test]
fn attack_times_are_the_shortest_ways_through_bricks() {
    let mut rng = Rng::new(11);
    let mut eval = TankEval::new();
    let mut checked = 0;
    for seed in 1..=40u32 {
        let mut field = Field::new(bricks_from_seed(seed));
        // Through a random game to its end (bricks shot away, bases lost).
        loop {
            let times = eval.attack_times(&field);
            for (side, map) in times.iter().enumerate() {
                assert_eq!(
                    *map,
                    plain_attack_map(&field, side, 0),
                    "seed {seed}, turn {}, the base of side {side}:\n{field}",
                    field.turn()
                );
            }
            checked += 1;
            if field.is_over() {
                break;
            }
            let turn_actions = field.random_turn(&mut rng);
            field.apply_unchecked(turn_actions);
        }
    }
    assert!(checked > 1000, "only {checked} positions checked");
}

#[test]
fn the_maps_of_the_value_count_the_enemy_guards_and_not_its_own() {
    let mut rng = Rng::new(12);
    let mut eval = TankEval::new();
    let guard = eval.weights.guard;
    assert!(guard > 0, "guards are on by default");
    let (mut checked, mut guarded) = (0, 0);
    for seed in 1..=40u32 {
        let mut field = Field::new(bricks_from_seed(seed));
        while !field.is_over() {
            for side in 0..2 {
                let enemy = 1 - side;
                let times = eval.attack_times_for(&field, side);
                let plain = plain_attack_map(&field, enemy, guard);
                let at = format!("seed {seed}, turn {}, side {side}:\n{field}", field.turn());
                assert_eq!(times[enemy], plain, "the enemy base, {at}");
                assert_eq!(
                    times[side],
                    plain_attack_map(&field, side, 0),
                    "its own, {at}"
                );
                guarded += usize::from(plain != plain_attack_map(&field, enemy, 0));
                checked += 1;
            }
            let turn_actions = field.random_turn(&mut rng);
            field.apply_unchecked(turn_actions);
        }
    }
    assert!(checked > 1000, "only {checked} positions checked");
    assert!(guarded > 100, "only {guarded} positions with a guard");
}

#[test]
fn the_race_lead_goes_to_the_side_whose_quickest_attack_lands_first() {
    let mut rng = Rng::new(13);
    let mut with = TankEval::new();
    let mut without = TankEval::new();
    let (lead, lead_turns) = (with.weights.lead, with.weights.lead_turns);
    assert!(lead > 0, "the race lead is on by default");
    without.weights.lead = 0;
    let (mut checked, mut led, mut behind) = (0, 0, 0);
    for seed in 41..=80u32 {
        let mut field = Field::new(bricks_from_seed(seed));
        while !field.is_over() {
            for side in 0..2 {
                // Each side's quickest tank on the maps the value uses.
                let times = with.attack_times_for(&field, side);
                let quickest = |s: usize| {
                    (0..2)
                        .filter_map(|t| field.tank_cell(s * 2 + t))
                        .map(|c| times[1 - s][c])
                        .min()
                        .unwrap_or(u8::MAX)
                };
                let (mine, theirs) = (quickest(side), quickest(1 - side));
                let expected = if mine < theirs && mine <= lead_turns {
                    led += 1;
                    lead
                } else if theirs < mine && theirs <= lead_turns {
                    behind += 1;
                    -lead
                } else {
                    0
                };
                let at = format!("seed {seed}, turn {}, side {side}:\n{field}", field.turn());
                let diff = with.value(&field, side) - without.value(&field, side);
                assert_eq!(diff, expected, "{at}");
                checked += 1;
            }
            let turn_actions = field.random_turn(&mut rng);
            field.apply_unchecked(turn_actions);
        }
    }
    assert!(checked > 1000, "only {checked} positions checked");
    assert!(led > 50 && behind > 50, "{led} leads, {behind} behind");
}

#[test]
fn a_search_makes_no_heap_allocation() {
    let mut search = AlphaBeta::new(16);
    let mut eval = TankEval::new();
    let deadline = Deadline::after(Duration::from_secs(3600));
    let limits = Limits {
        max_depth: 3,
        max_nodes: None,
    };
    let mut rng = Rng::new(5);
    let mut field = Field::new(bricks_from_seed(4));
    let mut nodes = 0;
    for turn in 0..12 {
        if field.is_over() {
            break;
        }
        let me = turn % 2;
        let turn_actions = field.random_turn(&mut rng);
        // Every other turn, the opponent's coming pair is expected.
        let expected = (turn % 4 >= 2).then_some(SideAction(turn_actions[1 - me]));
        let (result, allocations) = common::count_allocations(|| {
            search.expect_reply(expected);
            search.search(&mut field, me, &mut eval, &deadline, limits)
        });
        assert_eq!(allocations, 0, "turn {turn}: the search allocated");
        assert_eq!(result.depth, 3);
        nodes += result.nodes;
        field.apply_unchecked(turn_actions);
    }
    assert!(nodes > 10_000, "only {nodes} nodes searched");
}
