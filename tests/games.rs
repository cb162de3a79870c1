//! What every game promises, checked once for all of them: each test runs
//! for every game of the registry (`GameKind::ALL`, through its visitor),
//! so a new game gets them by its registry line.
//!
//! - a random game never breaks an invariant: `check_invariants` holds
//!   after every turn, the turn counter counts the turns played, the game
//!   ends by `MAX_TURNS`, the scores are finite;
//! - undo goes back through every state of a random game to the start;
//! - `try_apply` either applies the turn (and undo restores the state
//!   before it) or fails and leaves the state untouched, also for actions
//!   that were legal elsewhere but are not here;
//! - `legal_actions`, `apply_unchecked`, `undo` and `random_playout` make
//!   no heap allocation.

mod common;

use botzone::games::botzone::BotzoneGame;
use botzone::games::line::LineGame;
use botzone::games::registry::{GameKind, Visitor};
use botzone::games::Rules;
use botzone::rng::Rng;

/// Seeds of the maps (or starts) each check plays.
const SEEDS: std::ops::Range<u32> = 1..13;

/// Plays random legal joint actions from `game` until it is over, calling
/// `each(game_before, joint, game_after)` for every turn; returns the turns
/// played.
fn play_random<G: Rules>(
    game: &mut G,
    rng: &mut Rng,
    mut each: impl FnMut(&G, &[G::Action], &G),
) -> u32 {
    let players = game.player_count();
    let mut actions = G::Actions::default();
    let mut joint = vec![G::Action::default(); players];
    let mut turns = 0;
    while !game.is_over() {
        for (p, slot) in joint.iter_mut().enumerate() {
            *slot = G::Action::default();
            if game.is_active(p) {
                game.legal_actions(p, &mut actions);
                if let Some(&a) = rng.choose(&actions) {
                    *slot = a;
                }
            }
        }
        let before = game.clone();
        game.apply_unchecked(&joint);
        turns += 1;
        each(&before, &joint, game);
        assert!(
            turns <= G::MAX_TURNS,
            "{}: still not over after MAX_TURNS = {} turns",
            G::NAME,
            G::MAX_TURNS
        );
    }
    turns
}

fn random_games_keep_every_invariant<G: Rules>() {
    for seed in SEEDS {
        let mut game = G::from_seed(seed);
        assert_eq!(
            game.turn(),
            0,
            "{} seed {seed}: a new game is at turn 0",
            G::NAME
        );
        assert_eq!(game.player_count(), G::SEATS, "{}", G::NAME);
        game.check_invariants()
            .unwrap_or_else(|e| panic!("{} seed {seed}, start: {e}", G::NAME));
        let mut rng = Rng::new(u64::from(seed));
        let mut scores = vec![0.0; G::SEATS];
        play_random(&mut game, &mut rng, |before, joint, after| {
            assert_eq!(
                after.turn(),
                before.turn() + 1,
                "{} seed {seed}: the turn counter counts turns ({joint:?})",
                G::NAME
            );
            after.check_invariants().unwrap_or_else(|e| {
                panic!(
                    "{} seed {seed}, turn {}: {e}\n{after}",
                    G::NAME,
                    after.turn()
                )
            });
            after.scores(&mut scores);
            assert!(
                scores.iter().all(|s| s.is_finite()),
                "{}: {scores:?}",
                G::NAME
            );
        });
        assert!(game.turn() <= G::MAX_TURNS);
    }
}

fn undo_returns_through_every_state<G: Rules>() {
    for seed in SEEDS {
        let start = G::from_seed(seed);
        let mut game = start.clone();
        let mut states = vec![game.clone()];
        let mut rng = Rng::new(u64::from(seed) + 100);
        let turns = play_random(&mut game, &mut rng, |_, _, after| {
            states.push(after.clone())
        });
        assert_eq!(states.len() as u32, turns + 1);
        for expected in states.iter().rev().skip(1) {
            assert!(
                game.undo(),
                "{} seed {seed}: undo refused before the start",
                G::NAME
            );
            assert_eq!(
                &game,
                expected,
                "{} seed {seed}: undo at turn {}",
                G::NAME,
                game.turn()
            );
        }
        assert!(!game.undo(), "{} seed {seed}: undo past the start", G::NAME);
        assert_eq!(game, start);
        // undo_turns goes back several turns at once, the same way.
        let mut again = start.clone();
        let mut rng = Rng::new(u64::from(seed) + 100);
        play_random(&mut again, &mut rng, |_, _, _| {});
        again.undo_turns(turns / 2);
        assert_eq!(&again, &states[(turns - turns / 2) as usize], "{}", G::NAME);
    }
}

fn try_apply_applies_or_leaves_the_state_untouched<G: Rules>() {
    let mut rejected = 0;
    for seed in SEEDS {
        // Every action seen legal anywhere in a first game...
        let mut seen: Vec<G::Action> = Vec::new();
        let mut game = G::from_seed(seed);
        let mut rng = Rng::new(u64::from(seed) + 200);
        let mut actions = G::Actions::default();
        play_random(&mut game, &mut rng, |before, _, _| {
            for p in 0..G::SEATS {
                if before.is_active(p) {
                    before.legal_actions(p, &mut actions);
                    for &a in actions.iter() {
                        if !seen.contains(&a) {
                            seen.push(a);
                        }
                    }
                }
            }
        });
        // ... is tried in a second game, legal there or not.
        let mut game = G::from_seed(seed);
        let mut rng = Rng::new(u64::from(seed) + 300);
        let mut joint = vec![G::Action::default(); G::SEATS];
        while !game.is_over() {
            let p = rng.index(G::SEATS);
            for (q, slot) in joint.iter_mut().enumerate() {
                *slot = G::Action::default();
                if game.is_active(q) {
                    game.legal_actions(q, &mut actions);
                    if let Some(&a) = rng.choose(&actions) {
                        *slot = a;
                    }
                }
            }
            if game.is_active(p) && !seen.is_empty() {
                joint[p] = seen[rng.index(seen.len())];
            }
            let before = game.clone();
            match game.try_apply(&joint) {
                Ok(()) => {
                    assert_eq!(game.turn(), before.turn() + 1, "{}", G::NAME);
                    let mut back = game.clone();
                    assert!(back.undo());
                    assert_eq!(back, before, "{}: undo after try_apply", G::NAME);
                }
                Err(e) => {
                    rejected += 1;
                    assert_eq!(
                        game,
                        before,
                        "{}: try_apply failed ({e}) and changed the state",
                        G::NAME
                    );
                    // Go on with a legal turn.
                    game.legal_actions(p, &mut actions);
                    joint[p] = actions.first().copied().unwrap_or_default();
                    game.try_apply(&joint).unwrap_or_else(|e| {
                        panic!("{}: legal actions {joint:?} rejected: {e}", G::NAME)
                    });
                }
            }
        }
    }
    assert!(
        rejected > 0,
        "{}: no turn was rejected: the check tried nothing illegal",
        G::NAME
    );
    eprintln!("{}: {rejected} turns rejected, state untouched", G::NAME);
}

fn hot_paths_make_no_allocation<G: Rules>() {
    let mut game = G::from_seed(1);
    let mut rng = Rng::new(7);
    let mut actions = G::Actions::default();
    let mut joint = vec![G::Action::default(); G::SEATS];
    // Warm up whatever is allocated once (e.g. caches) outside the count.
    let mut warm = game.clone();
    warm.random_playout(&mut rng);
    let ((), allocations) = common::count_allocations(|| {
        for _ in 0..50 {
            let mut turns = 0;
            while !game.is_over() {
                for (p, slot) in joint.iter_mut().enumerate() {
                    *slot = G::Action::default();
                    if game.is_active(p) {
                        game.legal_actions(p, &mut actions);
                        if let Some(&a) = rng.choose(&actions) {
                            *slot = a;
                        }
                    }
                }
                game.apply_unchecked(&joint);
                turns += 1;
            }
            game.undo_turns(turns);
            let played = game.random_playout(&mut rng);
            game.undo_turns(played);
        }
    });
    assert_eq!(
        allocations,
        0,
        "{}: legal_actions, apply_unchecked, undo and random_playout allocated",
        G::NAME
    );
}

/// One `#[test]` per check, running it for every game of the registry.
macro_rules! for_every_game {
    ($($test:ident => $check:ident;)*) => {
        $(
            #[test]
            fn $test() {
                struct V;
                impl Visitor for V {
                    type Output = ();
                    fn botzone<G: BotzoneGame>(self) {
                        $check::<G>()
                    }
                    fn line<G: LineGame>(self) {
                        $check::<G>()
                    }
                }
                for kind in GameKind::ALL {
                    kind.visit(V);
                }
            }
        )*
    };
}

for_every_game! {
    every_game_keeps_its_invariants_in_random_games => random_games_keep_every_invariant;
    every_game_undoes_back_through_every_state => undo_returns_through_every_state;
    every_game_try_apply_applies_or_leaves_the_state_untouched => try_apply_applies_or_leaves_the_state_untouched;
    every_game_hot_path_makes_no_allocation => hot_paths_make_no_allocation;
}
