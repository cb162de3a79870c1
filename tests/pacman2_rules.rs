//! Pacman2's rules, one test per rule, each on a small hand-made field
//! (the wiki's rules and its judge's order of a turn, `../shared/seeds/`;
//! where the judge and the wiki's sample differ, the judge: a beam also
//! hits a player who died this turn from an invalid action, on a cell a
//! live player shares).
//!
//! Fields are drawn as rows of `.` (empty), `o` (small fruit), `O` (large
//! fruit), `G` (a generator) and `0`..`3` (a player), on a 6 x 6 board whose
//! edges wrap around. Every player starts with strength 1.

use botzone::games::pacman2::{
    Action, Constants, Map, Pacman2, TurnError, GENERATOR, LARGE_FRUIT, MAX_SIDE, MAX_TURNS,
    SMALL_FRUIT, WALL_EAST, WALL_NORTH, WALL_SOUTH, WALL_WEST,
};

const S: Action = Action::Stay;

fn field(rows: [&str; 6]) -> Map {
    let mut statics = [[0u8; MAX_SIDE]; MAX_SIDE];
    let mut content = [[0u8; MAX_SIDE]; MAX_SIDE];
    for (r, row) in rows.iter().enumerate() {
        for (c, ch) in row.chars().enumerate() {
            match ch {
                '.' => {}
                'o' => content[r][c] = SMALL_FRUIT,
                'O' => content[r][c] = LARGE_FRUIT,
                'G' => statics[r][c] = GENERATOR,
                '0'..='3' => content[r][c] |= 1 << (ch as u8 - b'0'),
                _ => panic!("unknown cell {ch:?}"),
            }
        }
    }
    Map {
        seed: None,
        width: 6,
        height: 6,
        constants: Constants::default(),
        statics,
        content,
    }
}

/// A wall on side `dir` (0 up, 1 right, 2 down, 3 left) of a cell, and on
/// the facing side of its neighbour.
fn wall(map: &mut Map, r: usize, c: usize, dir: usize) {
    let (bits, back, (nr, nc)) = match dir {
        0 => (WALL_NORTH, WALL_SOUTH, ((r + 5) % 6, c)),
        1 => (WALL_EAST, WALL_WEST, (r, (c + 1) % 6)),
        2 => (WALL_SOUTH, WALL_NORTH, ((r + 1) % 6, c)),
        _ => (WALL_WEST, WALL_EAST, (r, (c + 5) % 6)),
    };
    map.statics[r][c] |= bits;
    map.statics[nr][nc] |= back;
}

fn play(game: &mut Pacman2, joint: [Action; 4]) {
    game.apply_unchecked(&joint);
}

fn strength(game: &Pacman2, p: usize) -> i32 {
    game.player(p).strength
}

#[test]
fn a_move_into_a_wall_is_invalid_and_the_player_dies_losing_everything() {
    let mut map = field(["0.....", "......", "..1...", "......", "....2.", ".....3"]);
    wall(&mut map, 0, 0, 1);
    let mut game = Pacman2::new(&map);
    assert!(!game.is_valid(0, Action::Right));
    let before = game.clone();
    assert!(matches!(
        game.try_apply(&[Action::Right, S, S, S]),
        Err(TurnError::Invalid { player: 0, .. })
    ));
    assert_eq!(game, before, "try_apply leaves the state untouched");
    // The judge plays it: the player dies with strength 0.
    play(&mut game, [Action::Right, S, S, S]);
    assert!(game.player(0).dead);
    assert_eq!(strength(&game, 0), 0);
    assert_eq!(game.alive_count(), 3);
}

#[test]
fn moves_wrap_around_the_edges() {
    let map = field(["0.....", "......", "..1...", "......", "....2.", ".....3"]);
    let mut game = Pacman2::new(&map);
    play(&mut game, [Action::Left, S, S, S]);
    assert_eq!((game.player(0).row, game.player(0).col), (0, 5));
    play(&mut game, [Action::Up, S, S, S]);
    assert_eq!((game.player(0).row, game.player(0).col), (5, 5));
}

#[test]
fn a_small_fruit_gives_one_strength_for_good() {
    let map = field(["0o....", "......", "..1...", "......", "....2.", ".....3"]);
    let mut game = Pacman2::new(&map);
    play(&mut game, [Action::Right, S, S, S]);
    assert_eq!(strength(&game, 0), 2);
    assert_eq!(game.content_at(0, 1) & SMALL_FRUIT, 0, "eaten");
    for _ in 0..20 {
        play(&mut game, [S; 4]);
    }
    assert_eq!(strength(&game, 0), 2);
}

#[test]
fn fruit_under_two_players_is_not_eaten() {
    let map = field(["0o1...", "......", "......", "......", "....2.", ".....3"]);
    let mut game = Pacman2::new(&map);
    play(&mut game, [Action::Right, Action::Left, S, S]);
    assert_eq!((strength(&game, 0), strength(&game, 1)), (1, 1));
    assert!(
        !game.player(0).dead && !game.player(1).dead,
        "equal strengths do not fight"
    );
    assert_ne!(game.content_at(0, 1) & SMALL_FRUIT, 0, "the fruit stays");
}

#[test]
fn a_large_fruit_adds_ten_strength_for_ten_turns() {
    let map = field(["0O....", "......", "..1...", "......", "....2.", ".....3"]);
    let mut game = Pacman2::new(&map);
    play(&mut game, [Action::Right, S, S, S]);
    assert_eq!(strength(&game, 0), 11);
    assert_eq!(game.player(0).power_up_left, 9);
    for _ in 0..8 {
        play(&mut game, [S; 4]);
    }
    assert_eq!(strength(&game, 0), 11, "the boost lasts its ten turns");
    play(&mut game, [S; 4]);
    assert_eq!(strength(&game, 0), 1);
    assert_eq!(game.player(0).power_up_left, 0);
}

/// Player 0 at strength 12 on (2,3), player 1 at 11 on (2,4), after three
/// turns.
fn strong_neighbours() -> Pacman2 {
    let map = field(["......", "......", "0Oo.O1", "......", "2.....", ".....3"]);
    let mut game = Pacman2::new(&map);
    play(&mut game, [Action::Right, Action::Left, S, S]);
    play(&mut game, [Action::Right, S, S, S]);
    play(&mut game, [Action::Right, S, S, S]);
    assert_eq!((strength(&game, 0), strength(&game, 1)), (12, 11));
    assert_eq!(game.player(0).col, 3);
    game
}

#[test]
fn the_stronger_player_eats_the_weaker_one_on_a_shared_cell() {
    let mut game = strong_neighbours();
    play(&mut game, [Action::Right, S, S, S]);
    // The loser drops half its strength (rounded down) to the winner and
    // dies, keeping the other half.
    assert!(game.player(1).dead);
    assert_eq!(strength(&game, 1), 6);
    assert_eq!(strength(&game, 0), 17);
    assert_eq!(game.player(0).col, 4);
}

#[test]
fn a_move_onto_a_stronger_player_is_replaced_by_staying() {
    let mut game = strong_neighbours();
    play(&mut game, [S, Action::Left, S, S]);
    assert_eq!(game.player(1).col, 4, "scared: it stays");
    assert!(!game.player(1).dead && !game.player(0).dead);
}

#[test]
fn a_beam_costs_its_shooter_four_and_takes_six_from_each_player_hit() {
    let map = field(["......", "......", "0O.1.2", "......", "......", ".....3"]);
    let mut game = Pacman2::new(&map);
    play(&mut game, [Action::Right, S, S, S]);
    assert_eq!(strength(&game, 0), 11);
    play(&mut game, [Action::RightShoot, S, S, S]);
    assert_eq!(strength(&game, 0), 11 - 4 + 6 + 6);
    // At strength 1 - 6 both die, with strength 0.
    assert!(game.player(1).dead && game.player(2).dead);
    assert_eq!((strength(&game, 1), strength(&game, 2)), (0, 0));
}

#[test]
fn a_wall_stops_a_beam() {
    let mut map = field(["......", "......", "0O.1.2", "......", "......", ".....3"]);
    wall(&mut map, 2, 4, 1);
    let mut game = Pacman2::new(&map);
    play(&mut game, [Action::Right, S, S, S]);
    play(&mut game, [Action::RightShoot, S, S, S]);
    assert_eq!(strength(&game, 0), 11 - 4 + 6);
    assert!(game.player(1).dead);
    assert!(!game.player(2).dead, "behind the wall");
}

#[test]
fn a_player_too_weak_to_pay_for_a_beam_may_not_shoot() {
    let map = field(["0.....", "......", "..1...", "......", "....2.", ".....3"]);
    let mut game = Pacman2::new(&map);
    assert!(!game.is_valid(0, Action::DownShoot), "strength 1 - 4 <= 0");
    play(&mut game, [Action::DownShoot, S, S, S]);
    assert!(game.player(0).dead);
}

#[test]
fn a_beam_also_hits_a_player_who_died_this_turn_from_an_invalid_action_beside_a_live_one() {
    // The judge's rule (the wiki's sample misses it): a beam that finds a
    // live player on a cell also hits a player who died there this turn
    // from an invalid action, who keeps the negative strength.
    let mut map = field(["......", "......", "0O.1..", "......", "......", ".....3"]);
    map.content[2][3] |= 1 << 2;
    wall(&mut map, 2, 3, 0);
    let mut game = Pacman2::new(&map);
    play(&mut game, [Action::Right, S, S, S]);
    play(&mut game, [Action::RightShoot, Action::Up, S, S]);
    assert!(game.player(1).dead && game.player(2).dead);
    assert_eq!(strength(&game, 0), 11 - 4 + 6 + 6);
    assert_eq!(strength(&game, 1), -6, "hit after its death");
    assert_eq!(strength(&game, 2), 0);
}

#[test]
fn a_beam_passes_a_player_who_died_this_turn_alone_on_its_cell() {
    let mut map = field(["......", "......", "0O.1..", "......", "......", "2....3"]);
    wall(&mut map, 2, 3, 0);
    let mut game = Pacman2::new(&map);
    play(&mut game, [Action::Right, S, S, S]);
    play(&mut game, [Action::RightShoot, Action::Up, S, S]);
    assert!(game.player(1).dead);
    assert_eq!(strength(&game, 0), 11 - 4);
    assert_eq!(strength(&game, 1), 0);
}

#[test]
fn generators_fill_their_eight_neighbours_every_twenty_turns() {
    let map = field(["......", "..G...", "......", "0.....", "....2.", "1....3"]);
    let mut game = Pacman2::new(&map);
    for _ in 0..19 {
        play(&mut game, [S; 4]);
    }
    assert_eq!(game.content_at(0, 1) & SMALL_FRUIT, 0);
    play(&mut game, [S; 4]);
    for (r, c) in [
        (0, 1),
        (0, 2),
        (0, 3),
        (1, 1),
        (1, 3),
        (2, 1),
        (2, 2),
        (2, 3),
    ] {
        assert_ne!(game.content_at(r, c) & SMALL_FRUIT, 0, "({r},{c})");
    }
    assert_eq!(
        game.content_at(1, 2) & SMALL_FRUIT,
        0,
        "not on the generator"
    );
    assert_eq!(game.small_fruit_count(), 8);
}

#[test]
fn the_last_survivor_takes_every_small_fruit_and_the_game_ends() {
    let map = field(["0.o...", "......", "..1.o.", "......", "o...2.", ".....3"]);
    let mut game = Pacman2::new(&map);
    play(
        &mut game,
        [S, Action::Invalid, Action::Invalid, Action::Invalid],
    );
    assert!(game.is_over());
    assert_eq!(strength(&game, 0), 1 + 3);
    // Scores: (rank * 1000 + 10000 * strength / total) / 100, where rank
    // is 1 + the number of weaker players (equals share it).
    assert_eq!(game.final_scores(), [140.0, 10.0, 10.0, 10.0]);
}

#[test]
fn the_game_ends_after_turn_100() {
    let map = field(["0.....", "......", "..1...", "......", "....2.", ".....3"]);
    let mut game = Pacman2::new(&map);
    for turn in 1..=MAX_TURNS {
        assert!(!game.is_over(), "over before turn {turn}");
        play(&mut game, [S; 4]);
    }
    assert!(game.is_over());
    assert_eq!(game.turn(), 100);
    assert!(game.try_apply(&[S; 4]).is_err());
}
