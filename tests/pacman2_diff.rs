//! Randomized differential test: the library's Pacman2 (bitboard fast
//! paths) against the previous implementation kept in
//! tests/pacman2_diff/reference.rs, on judge maps and on maps with odd
//! constants, with random valid actions, random invalid ones and moves
//! that bump into players, compared field by field after every turn and
//! after every undo.

#[path = "pacman2_diff/reference.rs"]
mod reference;

use botzone::games::pacman2::{Action, Actions, Map, Pacman2, PLAYERS};
use botzone::rng::Rng;
use reference::Reference;

fn same(game: &Pacman2, r: &Reference, what: &str) {
    assert_eq!(game.turn() as usize, r.turn(), "{what}: turn");
    assert_eq!(game.players(), r.players(), "{what}: players");
    assert_eq!(game.content_grid(), r.content_grid(), "{what}: content");
    assert_eq!(
        game.generator_turn_left(),
        r.generator_turn_left(),
        "{what}: generator"
    );
    assert_eq!(
        game.small_fruit_count(),
        r.small_fruit_count(),
        "{what}: small fruit count"
    );
    assert_eq!(game.is_over(), r.is_over(), "{what}: over");
    let mut a = Actions::default();
    let mut b = Actions::default();
    for p in 0..PLAYERS {
        game.legal_actions(p, &mut a);
        r.legal_actions(p, &mut b);
        assert_eq!(&a[..], &b[..], "{what}: legal actions of {p}");
    }
    assert_eq!(game.final_scores(), r.final_scores(), "{what}: scores");
}

/// A joint action: mostly random valid actions, sometimes an invalid one
/// (a wall, a shot without strength, -10), sometimes everybody moving
/// towards the same spot.
fn joint(game: &Pacman2, rng: &mut Rng, wild: u32) -> [Action; PLAYERS] {
    let mut list = Actions::default();
    let mut out = [Action::Stay; PLAYERS];
    for (p, slot) in out.iter_mut().enumerate() {
        game.legal_actions(p, &mut list);
        *slot = if rng.below(100) < wild {
            Action::from_code(i64::from(rng.below(11)) - 2)
        } else if let Some(&a) = rng.choose(&list) {
            a
        } else {
            Action::Stay
        };
    }
    out
}

fn run(map: &Map, seed: u64, games: usize, wild: u32) -> usize {
    let mut game = Pacman2::new(map);
    let mut r = Reference::new(map);
    let mut rng = Rng::new(seed);
    let mut turns = 0;
    for g in 0..games {
        let mut states = Vec::new();
        while !game.is_over() {
            let j = joint(&game, &mut rng, wild);
            game.apply_unchecked(&j);
            let a = !game.is_over();
            let b = r.apply(&j);
            assert_eq!(a, b, "game {g} turn {}: apply result", game.turn());
            same(
                &game,
                &r,
                &format!("game {g} after turn {} {j:?}", game.turn()),
            );
            states.push(game.clone());
            turns += 1;
        }
        // Undo part of the way, then all the way, checking each state.
        let back = rng.below(states.len() as u32 + 1) as usize;
        for k in 0..back {
            assert!(game.undo() && r.undo());
            let i = states.len() - 2 - k.min(states.len() - 2);
            if k + 2 <= states.len() {
                assert!(game == states[i], "game {g}: undo to turn {}", game.turn());
            }
            same(&game, &r, &format!("game {g} undone to {}", game.turn()));
        }
        game.undo_to(0);
        r.undo_to(0);
        same(&game, &r, &format!("game {g} back at the start"));
    }
    // Rollouts from the library's own random policy agree too.
    for _ in 0..games {
        let mut a = rng.clone();
        let mut b = rng.clone();
        let n = game.random_playout(&mut a);
        let m = r.random_rollout(&mut b);
        assert_eq!(n as usize, m, "playout length");
        same(&game, &r, "after a rollout");
        game.undo_to(0);
        r.undo_to(0);
        rng.next_u64();
    }
    turns
}

#[test]
fn matches_the_reference_on_judge_maps() {
    let mut turns = 0;
    for seed in 0..60u32 {
        let map = Map::generate(seed);
        let wild = [0, 0, 2, 10, 30][seed as usize % 5];
        turns += run(&map, u64::from(seed) + 1000, 20, wild);
    }
    assert!(turns > 10_000, "{turns} turns checked");
}

#[test]
fn matches_the_reference_with_odd_constants() {
    for seed in 0..30u32 {
        let mut map = Map::generate(seed + 500);
        map.constants.skill_cost = [1, 3, 5, 0, 2][seed as usize % 5];
        map.constants.large_fruit_duration = [1, 3, 10, 0][seed as usize % 4];
        map.constants.large_fruit_enhancement = [1, 7, 10][seed as usize % 3];
        map.constants.generator_interval = [1, 2, 7, 20][seed as usize % 4];
        run(&map, u64::from(seed), 10, [0, 5, 20][seed as usize % 3]);
    }
}

#[test]
fn matches_the_reference_on_crowded_tiny_maps() {
    // Players packed on small fields fight, scare each other and share
    // cells after ties.
    for seed in 0..40u32 {
        let base = Map::generate(seed + 900);
        let mut map = base.clone();
        let (w, h) = (2 + seed as usize % 3, 1 + seed as usize % 3);
        map.width = w;
        map.height = h;
        for r in 0..h {
            for c in 0..w {
                map.statics[r][c] = base.statics[r][c] & 0x1f;
                map.content[r][c] = base.content[r][c] & 0x30;
            }
        }
        // Fix walls so that they are symmetric across wrapped edges.
        for r in 0..h {
            for c in 0..w {
                let s = map.statics[r][c];
                let e = (c + 1) % w;
                let so = (r + 1) % h;
                if s & 2 != 0 {
                    map.statics[r][e] |= 8;
                } else {
                    map.statics[r][e] &= !8;
                }
                if s & 4 != 0 {
                    map.statics[so][c] |= 1;
                } else {
                    map.statics[so][c] &= !1;
                }
            }
        }
        let mut rng = Rng::new(u64::from(seed));
        for p in 0..PLAYERS {
            let cell = rng.below((w * h) as u32) as usize;
            map.content[cell / w][cell % w] |= 1 << p;
        }
        run(&map, u64::from(seed) + 7, 10, [0, 5, 20][seed as usize % 3]);
    }
}
