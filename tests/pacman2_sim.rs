//! Pacman2 simulator properties: no heap allocation in the hot path, undo
//! restores every state exactly (including after invalid actions), the
//! `Game` impl agrees with the inherent API, the same moves give the same
//! states by clone-and-apply and by apply/undo, and bad maps and requests
//! give errors that name the part; random rollouts pick uniformly and
//! independently.

mod common;

use botzone::fixed::FixedList;
use botzone::games::pacman2::{Action, Actions, Map, Pacman2, RandomPolicy, PLAYERS};
use botzone::games::Game;
use botzone::json::Value;
use botzone::rng::Rng;
use botzone::search::flat_mc::{self, Limits, UniformPolicy};
use botzone::time::Deadline;
use std::time::Duration;

#[test]
fn no_allocation_in_apply_undo_legal_actions_or_rollouts() {
    let map = Map::generate(7);
    let mut game = Pacman2::new(&map);
    let mut rng = Rng::new(1);
    let mut list = Actions::default();
    let ((), allocations) = common::count_allocations(|| {
        for _ in 0..200 {
            // Explicit turns through legal_actions, apply and undo.
            let mut turns = 0;
            while !game.is_over() {
                let mut joint = [Action::Stay; PLAYERS];
                for (p, slot) in joint.iter_mut().enumerate() {
                    game.legal_actions(p, &mut list);
                    if let Some(&a) = rng.choose(&list) {
                        *slot = a;
                    }
                }
                game.apply_unchecked(&joint);
                turns += 1;
            }
            let _ = game.final_scores();
            for _ in 0..turns {
                assert!(game.undo());
            }
            // And the fast rollout.
            let n = game.random_playout(&mut rng);
            game.undo_to(game.turn() - n);
        }
    });
    assert_eq!(allocations, 0, "the hot path allocated");
    assert_eq!(game.turn(), 0);
}

/// Random play with some invalid actions: every undo restores the exact
/// earlier state (compared as whole games, history included).
#[test]
fn undo_restores_every_state_on_many_maps() {
    for seed in 1..=40 {
        let mut game = Pacman2::new(&Map::generate(seed));
        let mut rng = Rng::new(u64::from(seed));
        for _ in 0..5 {
            let mut states = vec![game.clone()];
            while !game.is_over() {
                let mut joint = [Action::Stay; PLAYERS];
                for (p, slot) in joint.iter_mut().enumerate() {
                    *slot = if rng.below(30) == 0 {
                        Action::from_code(i64::from(rng.below(12)) - 2) // sometimes invalid
                    } else if game.is_alive(p) {
                        game.random_action(p, &mut rng)
                    } else {
                        Action::Stay
                    };
                }
                game.apply_unchecked(&joint);
                states.push(game.clone());
            }
            while let Some(want) = states.pop() {
                assert!(game == want, "seed {seed}: undo to turn {}", want.turn());
                if !states.is_empty() {
                    assert!(game.undo());
                }
            }
            assert!(!game.undo());
        }
    }
}

#[test]
fn clone_and_apply_equals_apply_and_undo() {
    let map = Map::generate(11);
    let start = Pacman2::new(&map);
    let mut rng = Rng::new(3);
    let mut game = start.clone();
    let mut moves = vec![];
    while !game.is_over() {
        let joint: Vec<Action> = (0..PLAYERS)
            .map(|p| {
                if game.is_alive(p) {
                    game.random_action(p, &mut rng)
                } else {
                    Action::Stay
                }
            })
            .collect();
        game.apply_unchecked(&joint);
        moves.push(joint);
    }
    // Replay on a fresh clone.
    let mut replay = start.clone();
    for joint in &moves {
        let before = replay.clone();
        replay.apply_unchecked(joint);
        let mut back = replay.clone();
        back.undo();
        assert!(back == before);
    }
    assert!(replay == game);
    // Through the Game trait.
    let mut via_trait = start.clone();
    for joint in &moves {
        Game::apply_unchecked(&mut via_trait, joint);
    }
    assert!(via_trait == game);
    let mut scores = [0.0; 4];
    Game::scores(&game, &mut scores);
    assert_eq!(scores, game.final_scores());
}

#[test]
fn game_trait_agrees_with_inherent_api() {
    let game = Pacman2::new(&Map::generate(2));
    assert_eq!(game.player_count(), 4);
    let mut list: Actions = FixedList::new();
    for p in 0..4 {
        Game::legal_actions(&game, p, &mut list);
        assert_eq!(list[0], Action::Stay);
        // Strength 1 at the start: no shots yet.
        assert!(list.iter().all(|a| !a.is_shot()));
        for a in Action::ALL {
            assert_eq!(list.contains(&a), game.is_valid(p, a), "player {p} {a:?}");
        }
        assert!(Game::is_active(&game, p));
    }
}

#[test]
fn scores_follow_botzone() {
    // Strengths 23, 233, 233, 2333 rank 1, 2, 2, 4 (the wiki's example).
    let s = [23i64, 233, 233, 2333];
    let total: i64 = s.iter().sum();
    let want: Vec<f64> = [1, 2, 2, 4]
        .iter()
        .zip(s)
        .map(|(r, x)| (r * 1000 + 10000 * x / total) as f64 / 100.0)
        .collect();
    assert_eq!(want[0], (1000 + 10000 * 23 / 2822) as f64 / 100.0);
    // At the start everyone has strength 1: all share rank 1, 25% each.
    let game = Pacman2::new(&Map::generate(4));
    assert_eq!(game.final_scores(), [35.0; 4]);
}

#[test]
fn flat_mc_returns_a_legal_action_and_restores_the_game() {
    let mut game = Pacman2::new(&Map::generate(9));
    let before = game.clone();
    let mut rng = Rng::new(5);
    let deadline = Deadline::after(Duration::from_secs(10));
    let limits = Limits {
        max_rollouts: Some(900),
        ..Limits::default()
    };
    let fast = flat_mc::search(&mut game, 2, &deadline, &mut rng, &mut RandomPolicy, limits);
    assert!(game == before);
    assert_eq!(fast.rollouts, 900);
    assert!(game.is_valid(2, fast.best));
    let total: u64 = fast.arms.iter().map(|a| a.visits).sum();
    assert_eq!(total, 900);
    let generic = flat_mc::search(
        &mut game,
        2,
        &deadline,
        &mut rng,
        &mut UniformPolicy::default(),
        limits,
    );
    assert!(game == before);
    assert!(game.is_valid(2, generic.best));
    // A passed deadline: no rollout, still a legal action.
    let none = flat_mc::search(
        &mut game,
        1,
        &Deadline::after(Duration::ZERO),
        &mut rng,
        &mut RandomPolicy,
        Limits::default(),
    );
    assert_eq!(none.rollouts, 0);
    assert_eq!(none.best, Action::Stay);
}

/// The decoupled first turn (alone, and followed by open-loop turns):
/// every rollout counted once for the searching player, the most tried
/// action answered, the game restored, and a search's allocations (its
/// statistics and trees, made once) independent of how many rollouts it
/// runs.
#[test]
fn decoupled_flat_mc_answers_its_most_tried_action_without_allocating_per_rollout() {
    use botzone::games::pacman2::policy::{evaluate, GreedyPolicy};
    use botzone::search::flat_mc::{FlatMc, SearchResult};
    let deadline = Deadline::after(Duration::from_secs(30));
    let search = |game: &mut Pacman2,
                  policy: &mut GreedyPolicy,
                  rng: &mut Rng,
                  rollouts: u64,
                  open_loop: u32|
     -> SearchResult<Action> {
        let limits = Limits {
            max_rollouts: Some(rollouts),
            ..Limits::default()
        };
        FlatMc::new(limits)
            .depth(20)
            .decoupled(40.0)
            .open_loop(open_loop)
            .evaluator(evaluate)
            .search(game, 1, &deadline, rng, policy)
    };
    for (seed, open_loop) in [(3, 1), (11, 1), (12, 1), (3, 3), (11, 3), (12, 2)] {
        let mut game = Pacman2::new(&Map::generate(seed));
        let before = game.clone();
        let mut policy = GreedyPolicy::new(&game);
        let mut rng = Rng::new(u64::from(seed));
        let mut run = |game: &mut Pacman2, rollouts: u64| {
            common::count_allocations(|| search(game, &mut policy, &mut rng, rollouts, open_loop))
        };
        let (small, small_allocations) = run(&mut game, 100);
        let (result, allocations) = run(&mut game, 3000);
        assert!(game == before, "seed {seed}: the game was not restored");
        assert_eq!(
            allocations, small_allocations,
            "seed {seed}: allocations grew with the rollouts"
        );
        assert_eq!(small.rollouts, 100);
        assert_eq!(result.rollouts, 3000);
        assert!(result.turns >= 3000 && result.turns <= 3000 * 20);
        assert!(game.is_valid(1, result.best));
        let visits: Vec<u64> = result.arms.iter().map(|a| a.visits).collect();
        assert_eq!(visits.iter().sum::<u64>(), 3000, "seed {seed}");
        let most = result.arms.iter().map(|a| a.visits).max().unwrap();
        let best = result
            .arms
            .iter()
            .find(|a| a.action == result.best)
            .unwrap();
        assert_eq!(best.visits, most, "seed {seed}: {visits:?}");
        // UCB1 concentrates: the answer is tried more than in turn.
        assert!(
            most * result.arms.len() as u64 > 3000,
            "seed {seed}: {visits:?}"
        );
        if open_loop > 1 {
            // The later decoupled turns change the rollouts: the same
            // random stream gives other statistics with the first turn
            // decoupled alone.
            let mut again = |open_loop: u32| {
                search(&mut game, &mut policy, &mut Rng::new(5), 3000, open_loop).arms
            };
            let (first_only, more) = (again(1), again(open_loop));
            assert_eq!(again(open_loop), more, "seed {seed}: not reproducible");
            assert_ne!(
                first_only, more,
                "seed {seed}: open_loop({open_loop}) did nothing"
            );
        }
    }
}

/// `FlatMc::policy_mix`: in about that share of the rollouts each other
/// player's first action is the policy's (asked for in the root position,
/// and only for the other players), the searching player's never; the
/// search still counts every rollout for the searching player, restores
/// the game and allocates nothing per rollout.
#[test]
fn policy_mix_plays_the_policy_for_the_others_first_actions_in_its_share_of_rollouts() {
    use botzone::games::pacman2::policy::{evaluate, GreedyPolicy};
    use botzone::search::flat_mc::{FlatMc, Policy, SearchResult};

    /// The greedy policy, counting the actions asked for in the root
    /// position, per player.
    struct Counting {
        inner: GreedyPolicy,
        root_turn: u32,
        at_root: [u64; PLAYERS],
    }
    impl Policy<Pacman2> for Counting {
        fn action(&mut self, game: &Pacman2, player: usize, rng: &mut Rng) -> Action {
            if game.turn() == self.root_turn {
                self.at_root[player] += 1;
            }
            self.inner.action(game, player, rng)
        }
    }

    let deadline = Deadline::after(Duration::from_secs(30));
    let rollouts = 4000u64;
    let search = |game: &mut Pacman2,
                  policy: &mut Counting,
                  mix: f64,
                  rollouts: u64|
     -> SearchResult<Action> {
        let limits = Limits {
            max_rollouts: Some(rollouts),
            ..Limits::default()
        };
        FlatMc::new(limits)
            .depth(20)
            .decoupled(40.0)
            .open_loop(2)
            .policy_mix(mix)
            .evaluator(evaluate)
            .search(game, 2, &deadline, &mut Rng::new(9), policy)
    };
    for seed in [3, 11] {
        let mut game = Pacman2::new(&Map::generate(seed));
        let before = game.clone();
        let mut arms = Vec::new();
        for mix in [0.0, 0.5, 1.0] {
            let mut policy = Counting {
                inner: GreedyPolicy::new(&game),
                root_turn: game.turn(),
                at_root: [0; PLAYERS],
            };
            let (result, allocations) =
                common::count_allocations(|| search(&mut game, &mut policy, mix, rollouts));
            let (_, fewer) = common::count_allocations(|| search(&mut game, &mut policy, mix, 100));
            assert!(game == before, "seed {seed}, mix {mix}: not restored");
            assert_eq!(
                allocations, fewer,
                "seed {seed}, mix {mix}: allocations grew"
            );
            assert_eq!(result.rollouts, rollouts);
            let visits: u64 = result.arms.iter().map(|a| a.visits).sum();
            assert_eq!(visits, rollouts, "seed {seed}, mix {mix}");
            assert!(game.is_valid(2, result.best));
            // Counted over both searches: `rollouts + 100` first turns.
            let turns = (rollouts + 100) as f64;
            assert_eq!(policy.at_root[2], 0, "seed {seed}, mix {mix}: asked for me");
            for p in [0, 1, 3] {
                let share = policy.at_root[p] as f64 / turns;
                assert!(
                    (share - mix).abs() < 0.05,
                    "seed {seed}, mix {mix}: player {p} played the policy in {share:.3}"
                );
            }
            arms.push(result.arms);
        }
        assert_ne!(arms[0], arms[1], "seed {seed}: the mix changed nothing");
        assert_ne!(arms[1], arms[2], "seed {seed}: the mix changed nothing");
    }
}

#[test]
fn map_errors_name_the_part() {
    let good = Map::generate(3).to_json();
    let parse = |text: &str| Map::from_json(&Value::parse(text).unwrap());
    assert!(parse(&good).is_ok());
    let cases = [
        (good.replace("\"width\":", "\"widthx\":"), "width: missing"),
        (
            good.replace("\"static\":[[", "\"static\":[[99,"),
            "static[0]",
        ),
        (
            good.replace("\"content\":[[", "\"content\":[\"x\",["),
            "content",
        ),
        ("[1,2]".to_owned(), "expected an object"),
    ];
    for (text, want) in cases {
        let err = parse(&text).unwrap_err().to_string();
        assert!(err.contains(want), "{err:?} should mention {want:?}");
    }
    // A map without player 3.
    let mut map = Map::generate(3);
    for row in map.content.iter_mut() {
        for c in row.iter_mut() {
            *c &= !8;
        }
    }
    let err = Map::from_json(&Value::parse(&map.to_json()).unwrap()).unwrap_err();
    assert!(err.to_string().contains("player 3"), "{err}");
}

#[test]
fn request_errors_name_the_part() {
    let game = Pacman2::new(&Map::generate(3));
    let req = |t: &str| Value::parse(t).unwrap();
    let ok = game
        .joint_from_request(
            &req(r#"{"0":{"action":1},"1":{"action":-10},"2":{"action":-1},"3":{"action":7}}"#),
            "requests[1]",
        )
        .unwrap();
    assert_eq!(
        ok,
        [
            Action::Right,
            Action::Invalid,
            Action::Stay,
            Action::LeftShoot
        ]
    );
    let err = game
        .joint_from_request(
            &req(r#"{"0":{"action":1},"1":{"action":2},"2":{"action":"up"},"3":{"action":7}}"#),
            "requests[4]",
        )
        .unwrap_err()
        .to_string();
    assert_eq!(
        err,
        "requests[4].2.action: expected an integer, found a string"
    );
    // No entry for a live player: the judge holds it dead (an invalid
    // action, with a warning), not an error.
    let joint = game
        .joint_from_request(&req(r#"{"0":{"action":1}}"#), "requests[2]")
        .unwrap();
    assert_eq!(joint[1], Action::Invalid);
    let err = game
        .joint_from_request(&req("[1]"), "request")
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("request: expected an object"), "{err}");
}

/// `initdata` with a size: the judge still draws both sides (so the rest of
/// the generator's draws are unchanged), then a given side in 6..12
/// replaces the drawn one; other sizes are ignored.
#[test]
fn generate_sized_replaces_only_valid_sides() {
    for seed in 1..=30 {
        let drawn = Map::generate(seed);
        assert_eq!(Map::generate_sized(seed, None, None), drawn);
        assert_eq!(Map::generate_sized(seed, Some(12), Some(5)), drawn);
        let sized = Map::generate_sized(seed, Some(7), Some(11));
        assert_eq!((sized.width, sized.height), (7, 11));
        // A legal field: every player exactly once, inside the given size.
        let game = Pacman2::new(&sized);
        assert!(!game.is_over());
        for r in 0..11 {
            for c in 0..11 {
                if r >= sized.height || c >= sized.width {
                    assert_eq!(sized.content[r][c], 0, "seed {seed} ({r},{c})");
                }
            }
        }
        let players: u32 = sized
            .content
            .iter()
            .flatten()
            .map(|&x| u32::from(x & 15).count_ones())
            .sum();
        assert_eq!(players, 4, "seed {seed}");
    }
}

/// Pearson's chi-square statistic of `counts` against equal expectations.
fn chi_square(counts: &[u64]) -> f64 {
    let total: u64 = counts.iter().sum();
    let expected = total as f64 / counts.len() as f64;
    counts
        .iter()
        .map(|&c| (c as f64 - expected).powi(2) / expected)
        .sum()
}

#[test]
fn rollout_picks_are_uniform_and_independent() {
    // On the first turn every player is weak (strength 1, shots cost 4),
    // players stand far apart, and each valid action (stay, the moves
    // without a wall) leads to its own cell: the cells after turn 1 tell
    // which action each player drew.
    const N: u64 = 40_000;
    for seed in [1u32, 2, 3, 8] {
        let map = Map::generate(seed);
        let mut game = Pacman2::new(&map);
        let start = game.players();
        let mut choices: Vec<Vec<(usize, usize)>> = Vec::new();
        let mut list = Actions::default();
        for p in 0..PLAYERS {
            game.legal_actions(p, &mut list);
            assert!(list.iter().all(|a| !a.is_shot()));
            let mut cells = Vec::new();
            for &a in list.iter() {
                let mut g = game.clone();
                let mut joint = [Action::Stay; PLAYERS];
                joint[p] = a;
                g.apply_unchecked(&joint);
                cells.push((g.player(p).row, g.player(p).col));
            }
            choices.push(cells);
        }
        let mut single: Vec<Vec<u64>> = choices.iter().map(|c| vec![0; c.len()]).collect();
        let mut pairs = vec![0u64; choices[0].len() * choices[1].len()];
        let mut rng = Rng::new(u64::from(seed));
        for _ in 0..N {
            assert!(game.random_playout(&mut rng) > 0);
            game.undo_to(1);
            let mut picked = [0; PLAYERS];
            for p in 0..PLAYERS {
                let at = game.player(p);
                let i = choices[p]
                    .iter()
                    .position(|&c| c == (at.row, at.col))
                    .unwrap_or_else(|| {
                        panic!("seed {seed}: player {p} at {at:?}, from {:?}", start[p])
                    });
                single[p][i] += 1;
                picked[p] = i;
            }
            pairs[picked[0] * choices[1].len() + picked[1]] += 1;
            game.undo_to(0);
        }
        // Far beyond the 1e-6 quantiles (about 29 for 4 degrees of
        // freedom, 61 for 24): a real bias of 1% on 40,000 draws would
        // pass, a broken pick would not.
        for (p, counts) in single.iter().enumerate() {
            let chi = chi_square(counts);
            assert!(
                chi < 30.0,
                "seed {seed} player {p}: {counts:?} (chi-square {chi:.1})"
            );
        }
        let chi = chi_square(&pairs);
        assert!(
            chi < 70.0,
            "seed {seed}, players 0 and 1 jointly: {pairs:?} (chi-square {chi:.1})"
        );
    }
}
