//! Enclosure: one test per step and ruling of `specs/enclosure.md`, the
//! statement's example, random games (undo round trips, STATUS rebuild)
//! and no allocation. The referee as a program is tested in
//! `cli/tests/enclosure_referee.rs`.

mod common;

use botzone::games::enclosure::line_protocol::{parse_action, Status, Tracker};
use botzone::games::enclosure::{self, search};
use botzone::games::enclosure::{Command, Commands, Dir, Pen, PenState, State, PLAYERS};
use botzone::games::Game;
use botzone::rng::Rng;
use botzone::search::flat_mc::{FlatMc, Limits};
use botzone::time::Deadline;
use std::time::Duration;

/// `"r 1"` -> the command; anything unreadable -> [`Command::INVALID`],
/// what the referee plays for an unreadable answer.
fn c(s: &str) -> Command {
    parse_action(&format!("[ACTION] {s}")).unwrap_or(Command::INVALID)
}

fn turn(st: &mut State, cmds: [&str; 4]) {
    st.apply_unchecked(&cmds.map(c));
}

fn status(st: &State) -> String {
    Status::of(st).to_string()
}

fn pos(st: &State, p: usize) -> (u8, u8) {
    st.player(p).position()
}

/// Players 1..3 parked in the far corners, player 0 at `p0`.
fn solo(p0: (i32, i32)) -> State {
    State::new([p0, (10, 10), (10, 0), (0, 10)])
}

/// Plays player 0's commands with the others standing.
fn walk(st: &mut State, cmds: &[&str]) {
    for cm in cmds {
        turn(st, [cm, "s 0", "s 0", "s 0"]);
    }
}

/// The eight moves of player 0 around the 2x2 square with top-left (0, 0).
const SQUARE2: [&str; 8] = ["r 1", "r 0", "d 0", "d 0", "l 0", "l 0", "u 0", "u 0"];

mod commands {
    use super::*;

    #[test]
    fn unreadable_command_kills() {
        let mut st = solo((5, 5));
        turn(&mut st, ["x 0", "s 0", "s 0", "s 0"]);
        assert_eq!(st.player(0).state(), PenState::Dead);
        assert_eq!(pos(&st, 0), (5, 5));
        let mut st = solo((5, 5));
        turn(&mut st, ["r 2", "s 0", "s 0", "s 0"]);
        assert_eq!(st.player(0).state(), PenState::Dead);
        assert_eq!(parse_action("[ACTION] r 0 0"), None);
        assert_eq!(parse_action("[ACTION] rr 0"), None);
        assert_eq!(
            parse_action("[ACTION]   l   -1\r"),
            Some(Command::new(Dir::Left, Pen::Skill))
        );
    }

    #[test]
    fn skill_standing_kills() {
        let mut st = solo((5, 5));
        turn(&mut st, ["s -1", "s 0", "s 0", "s 0"]);
        assert_eq!(st.player(0).state(), PenState::Dead);
        assert_eq!(st.traps().count(), 0);
        assert_eq!(st.player(0).decline(), 0);
    }

    #[test]
    fn pen_down_then_pen_or_skill_kills() {
        for bad in ["r 1", "r -1", "s 1", "s -1"] {
            let mut st = solo((5, 5));
            walk(&mut st, &["r 1"]);
            turn(&mut st, [bad, "s 0", "s 0", "s 0"]);
            assert_eq!(st.player(0).state(), PenState::Dead, "{bad}");
            assert_eq!(pos(&st, 0), (6, 5), "{bad}: a dead player does not move");
        }
    }

    #[test]
    fn reversing_with_pen_down_kills_even_after_standing() {
        let mut st = solo((5, 5));
        walk(&mut st, &["r 1", "l 0"]);
        assert_eq!(st.player(0).state(), PenState::Dead);
        let mut st = solo((5, 5));
        walk(&mut st, &["r 1", "s 0", "s 0"]);
        assert_eq!(st.player(0).last_dir(), Dir::Right);
        walk(&mut st, &["l 0"]);
        assert_eq!(st.player(0).state(), PenState::Dead);
    }

    #[test]
    fn after_pen_down_in_place_any_direction() {
        for d in ["u 0", "d 0", "l 0", "r 0"] {
            let mut st = solo((5, 5));
            walk(&mut st, &["s 1", d]);
            assert_eq!(st.player(0).state(), PenState::Down, "{d}");
            assert_eq!(st.player(0).trail_len(), 2);
        }
    }

    #[test]
    fn trapped_player_command_is_ignored() {
        let mut st = State::new([(5, 5), (6, 4), (0, 0), (0, 10)]);
        // Player 0 moves up with the skill: traps on (5,5), (4,5), (6,5).
        // Player 1 steps down onto (6,5) and is caught.
        turn(&mut st, ["u -1", "d 0", "s 0", "s 0"]);
        assert_eq!(st.player(1).stuck(), 4);
        // A bad command and an unreadable one are both ignored.
        turn(&mut st, ["s 0", "s -1", "s 0", "s 0"]);
        turn(&mut st, ["s 0", "garbage", "s 0", "s 0"]);
        assert_eq!(st.player(1).state(), PenState::Up);
        assert_eq!(pos(&st, 1), (6, 5));
        assert_eq!(st.player(1).stuck(), 2);
    }

    #[test]
    fn legal_commands_never_kill() {
        let mut st = solo((0, 0));
        let mut cs = Commands::new();
        st.legal_commands(0, &mut cs);
        // Pen up in a corner: r, d with 0, 1, -1; s 0; s 1.
        assert_eq!(cs.len(), 8);
        walk(&mut st, &["r 1"]);
        st.legal_commands(0, &mut cs);
        let got: Vec<String> = cs.iter().map(|c| c.to_string()).collect();
        assert_eq!(got, ["d 0", "r 0", "s 0"]);
    }
}

mod moves {
    use super::*;

    #[test]
    fn off_the_board_kills_without_moving() {
        let mut st = State::new([(0, 0), (10, 10), (10, 0), (0, 10)]);
        turn(&mut st, ["l 0", "d 1", "u -1", "s 0"]);
        for p in 0..3 {
            assert_eq!(st.player(p).state(), PenState::Dead);
        }
        assert_eq!(pos(&st, 0), (0, 0));
        assert_eq!(pos(&st, 1), (10, 10));
        assert_eq!(st.traps().count(), 0, "a dead skill user drops nothing");
        assert_eq!(st.player(2).decline(), 0);
    }

    #[test]
    fn forbidden_edges() {
        // Player 0 owns the 2x2 square at (0,0); its interior edges meet at (1,1).
        let mut st = State::new([(0, 0), (3, 1), (3, 0), (10, 10)]);
        walk(&mut st, &SQUARE2);
        assert_eq!(st.player(0).state(), PenState::Up);
        // Players 1 and 2 come next to the square, on its boundary.
        turn(&mut st, ["s 0", "l 0", "l 0", "s 0"]);
        assert_eq!(st.alive_count(), 4);
        for (i, j) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
            assert_eq!(st.owner(i, j), Some(0));
        }
        // Interior edges: (1,0)-(1,1) yes; border and boundary edges never.
        assert_eq!(st.interior_owner(12, 1), Some(0));
        assert_eq!(st.interior_owner(0, 1), None);
        assert_eq!(st.interior_owner(2, 13), None);
        let mut a = st.clone();
        // Pen up into another's interior: death, no move. Pen down along the
        // boundary: fine.
        turn(&mut a, ["s 0", "l 0", "d 1", "s 0"]);
        assert_eq!(a.player(1).state(), PenState::Dead);
        assert_eq!(pos(&a, 1), (2, 1));
        assert_eq!(a.player(2).state(), PenState::Down);
        assert_eq!(pos(&a, 2), (2, 1));
        // Pen up on one's own interior: fine; pen down there: death.
        let mut b = st.clone();
        walk(&mut b, &["r 0", "d 0"]);
        assert_eq!(pos(&b, 0), (1, 1));
        assert_eq!(b.player(0).state(), PenState::Up);
        let mut b1 = b.clone();
        walk(&mut b1, &["d 1"]);
        assert_eq!(b1.player(0).state(), PenState::Dead);
        assert_eq!(pos(&b1, 0), (1, 1));
        // Pen down in place inside, then a move: also death.
        walk(&mut b, &["s 1", "r 0"]);
        assert_eq!(b.player(0).state(), PenState::Dead);
    }

    #[test]
    fn regions_never_merge() {
        let mut st = solo((0, 0));
        walk(&mut st, &["r 1", "d 0", "l 0", "u 0"]);
        walk(&mut st, &["r 0", "r 1", "d 0", "l 0", "u 0"]);
        assert_eq!(st.owner(0, 0), Some(0));
        assert_eq!(st.owner(1, 0), Some(0));
        assert_ne!(st.region(0, 0), st.region(1, 0));
        assert_eq!(st.interior_owner(1, 12), None);
        // Walking the shared edge with the pen down is allowed.
        walk(&mut st, &["l 0", "d 1"]);
        assert_eq!(st.player(0).state(), PenState::Down);
        assert_eq!(st.score(0), 10 * (1 + 1) + 4);
    }
}

mod traps {
    use super::*;

    #[test]
    fn statement_example() {
        let mut st = State::new([(9, 3), (1, 6), (0, 3), (4, 5)]);
        assert_eq!(
            status(&st),
            "[STATUS] 9 3 0 0 0 1 6 0 0 0 0 3 0 0 0 4 5 0 0 0 0"
        );
        // The statement prints `1` for `l` in its actions (the positions
        // show a move to the left).
        turn(&mut st, ["l 0", "s 0", "r 0", "s 1"]);
        assert_eq!(
            status(&st),
            "[STATUS] 8 3 0 0 0 1 6 0 0 0 1 3 0 0 0 4 5 1 0 0 0"
        );
        turn(&mut st, ["l 0", "l -1", "r 0", "s 0"]);
        assert_eq!(
            status(&st),
            "[STATUS] 7 3 0 0 0 0 6 0 0 -10 2 3 0 0 0 4 5 1 0 0 3 1 5 2 1 6 2 1 7 2"
        );
        // Beyond the transcript: player 1 steps back onto its own trap.
        turn(&mut st, ["l 0", "r 1", "l 1", "r 0"]);
        assert_eq!(
            status(&st),
            "[STATUS] 6 3 0 0 0 1 6 1 4 -10 1 3 1 0 0 5 5 1 0 0 2 1 5 1 1 7 1"
        );
    }

    #[test]
    fn counters_two_then_one_then_gone() {
        let mut st = State::new([(5, 5), (10, 10), (10, 0), (0, 10)]);
        turn(&mut st, ["r -1", "s 0", "s 0", "s 0"]);
        assert_eq!(st.trap(5, 5), 2);
        assert_eq!(st.trap(5, 4), 2);
        assert_eq!(st.trap(5, 6), 2);
        turn(&mut st, ["s 0", "s 0", "s 0", "s 0"]);
        assert_eq!(st.trap(5, 5), 1);
        // On the third turn it vanishes before catching.
        turn(&mut st, ["l 0", "s 0", "s 0", "s 0"]);
        assert_eq!(pos(&st, 0), (5, 5));
        assert_eq!(st.player(0).stuck(), 0);
        assert_eq!(st.traps().count(), 0);
    }

    #[test]
    fn caught_on_counter_one_and_held_four_turns() {
        let mut st = State::new([(5, 5), (10, 10), (10, 0), (0, 10)]);
        turn(&mut st, ["r -1", "s 0", "s 0", "s 0"]);
        turn(&mut st, ["l 0", "s 0", "s 0", "s 0"]);
        assert_eq!(st.player(0).stuck(), 4);
        assert_eq!(st.trap(5, 5), 0, "the trap that caught vanishes");
        assert_eq!(st.trap(5, 4), 1);
        for left in [3, 2, 1, 0] {
            turn(&mut st, ["u 0", "s 0", "s 0", "s 0"]);
            assert_eq!(pos(&st, 0), (5, 5));
            assert_eq!(st.player(0).stuck(), left);
        }
        turn(&mut st, ["u 0", "s 0", "s 0", "s 0"]);
        assert_eq!(pos(&st, 0), (5, 4));
    }

    #[test]
    fn replace_border_and_many_caught() {
        // Player 0 in the corner drops (0,0) and (0,1) only.
        let mut st = State::new([(0, 0), (6, 4), (6, 4), (10, 10)]);
        turn(&mut st, ["r -1", "s 0", "s 0", "s 0"]);
        let traps: Vec<_> = st.traps().collect();
        assert_eq!(traps, [(0, 0, 2), (0, 1, 2)]);
        assert_eq!(st.player(0).decline(), -10);
        // A new trap replaces an old one on its vertex (counter back to 2).
        let mut st = State::new([(5, 5), (10, 10), (10, 0), (0, 10)]);
        turn(&mut st, ["r -1", "s 0", "s 0", "s 0"]);
        turn(&mut st, ["u -1", "s 0", "s 0", "s 0"]);
        let traps: Vec<_> = st.traps().collect();
        assert_eq!(
            traps,
            [(5, 4, 1), (5, 5, 2), (6, 5, 2), (7, 5, 2), (5, 6, 1)]
        );
        assert_eq!(st.player(0).stuck(), 0);
        assert_eq!(st.player(0).decline(), -20);
        // Dropped under two standing players: both caught.
        let mut st = State::new([(6, 5), (6, 4), (6, 4), (10, 10)]);
        turn(&mut st, ["d -1", "s 0", "s 0", "s 0"]);
        // Moving down from (6,5): traps at (6,5), (5,5), (7,5): nobody there.
        assert_eq!(st.player(1).stuck(), 0);
        turn(&mut st, ["u -1", "d 0", "d 0", "s 0"]);
        // Player 0 back on (6,5)? It moved up from (6,6) onto (6,5): caught
        // by its own trap (counter 1), and so are players 1 and 2.
        assert_eq!(st.player(0).stuck(), 4);
        assert_eq!(st.player(1).stuck(), 4);
        assert_eq!(st.player(2).stuck(), 4);
        assert_eq!(st.player(0).decline(), -20);
    }
}

mod loops {
    use super::*;

    #[test]
    fn unit_square() {
        let mut st = solo((0, 0));
        walk(&mut st, &["r 1", "d 0", "l 0"]);
        assert_eq!(st.trail(0).len(), 4);
        walk(&mut st, &["u 0"]);
        assert_eq!(st.owner(0, 0), Some(0));
        assert_eq!(st.player(0).state(), PenState::Up);
        assert_eq!(st.trail(0).len(), 0);
        assert_eq!(st.unowned(), 99);
        assert_eq!(st.score(0), 14);
    }

    #[test]
    fn loop_from_the_middle_of_the_trail() {
        // A tail (0,0)-(1,0), then the square (1,0),(2,0),(2,1),(1,1).
        let mut st = solo((0, 0));
        walk(&mut st, &["r 1", "r 0", "d 0", "l 0", "u 0"]);
        assert_eq!(st.owner(1, 0), Some(0));
        assert_eq!(st.owner(0, 0), None);
        assert_eq!(st.unowned(), 99);
    }

    #[test]
    fn enclosed_die_those_on_the_cycle_live() {
        // Player 1 strictly inside; player 2 steps onto the cycle as it closes.
        let mut st = State::new([(0, 0), (1, 1), (1, 3), (10, 10)]);
        for (i, cm) in SQUARE2.iter().enumerate() {
            let p2 = if i == 7 { "u 0" } else { "s 0" };
            turn(&mut st, [cm, "s 0", p2, "s 0"]);
        }
        assert_eq!(st.player(1).state(), PenState::Dead);
        assert_eq!(pos(&st, 2), (1, 2));
        assert_eq!(st.player(2).state(), PenState::Up);
        assert_eq!(st.score(0), 10 * 16 + 4);
    }

    #[test]
    fn two_at_once_inner_first_and_killed() {
        // Player 0 walks the 4x4 square's border (16 moves); player 1 closes
        // the unit square at (2,2) inside it on the same turn.
        let mut st = State::new([(0, 0), (2, 2), (10, 10), (10, 0)]);
        let mut p0 = vec!["r 1", "r 0", "r 0", "r 0"];
        p0.extend(["d 0"; 4]);
        p0.extend(["l 0"; 4]);
        p0.extend(["u 0"; 4]);
        let mut p1 = vec!["s 0"; 12];
        p1.extend(["r 1", "d 0", "l 0", "u 0"]);
        for t in 0..16 {
            turn(&mut st, [p0[t], p1[t], "s 0", "s 0"]);
        }
        assert_eq!(st.owner(2, 2), Some(1));
        assert_eq!(
            st.region(2, 2),
            Some(0),
            "the smaller loop is applied first"
        );
        assert_eq!(st.player(1).state(), PenState::Dead);
        assert_eq!(st.player(0).state(), PenState::Up);
        assert_eq!(st.score(0), 10 * 15 * 15 + 4);
        assert_eq!(st.score(1), 10 + 3);
        let regions: Vec<_> = st.regions().collect();
        assert_eq!(regions, [(1, 1), (0, 15)]);
    }

    #[test]
    fn equal_loops_by_player_number() {
        let mut st = State::new([(5, 5), (0, 0), (10, 10), (10, 0)]);
        for (a, b) in [
            ("r 1", "r 1"),
            ("d 0", "d 0"),
            ("l 0", "l 0"),
            ("u 0", "u 0"),
        ] {
            turn(&mut st, [a, b, "s 0", "s 0"]);
        }
        assert_eq!(st.region(5, 5), Some(0));
        assert_eq!(st.region(0, 0), Some(1));
    }

    #[test]
    fn owned_cells_stay_and_split_into_regions() {
        // Player 1 takes cell (1,0) and walks off; player 0 then encloses the
        // strip (0,0)..(2,0): its free cells are two regions of one cell.
        let mut st = State::new([(0, 0), (1, 0), (10, 10), (10, 0)]);
        for cm in ["r 1", "d 0", "l 0", "u 0", "d 0", "d 0"] {
            turn(&mut st, ["s 0", cm, "s 0", "s 0"]);
        }
        assert_eq!(pos(&st, 1), (1, 2));
        walk(
            &mut st,
            &["r 1", "r 0", "r 0", "d 0", "l 0", "l 0", "l 0", "u 0"],
        );
        assert_eq!(st.owner(1, 0), Some(1));
        assert_eq!(st.owner(0, 0), Some(0));
        assert_eq!(st.owner(2, 0), Some(0));
        assert_ne!(st.region(0, 0), st.region(2, 0));
        assert_eq!(st.score(0), 10 * (1 + 1) + 4);
        assert_eq!(st.score(1), 10 + 3);
        assert_eq!(st.player(1).state(), PenState::Up);
    }

    #[test]
    fn whole_board_ends_the_game() {
        let mut st = State::new([(0, 0), (5, 5), (5, 5), (3, 3)]);
        let mut moves = vec!["r 1"];
        moves.extend(["r 0"; 9]);
        moves.extend(["d 0"; 10]);
        moves.extend(["l 0"; 10]);
        moves.extend(["u 0"; 10]);
        walk(&mut st, &moves);
        assert!(st.is_over());
        assert_eq!(st.unowned(), 0);
        assert_eq!(st.alive_count(), 1);
        assert_eq!(st.score(0), 10 * 100 * 100 + 4);
        assert_eq!(st.turn(), 40);
    }
}

mod interruptions {
    use super::*;

    #[test]
    fn pen_up_on_a_trail_kills_the_drawer_only() {
        let mut st = State::new([(5, 5), (6, 4), (10, 10), (10, 0)]);
        turn(&mut st, ["r 1", "s 0", "s 0", "s 0"]);
        turn(&mut st, ["r 0", "s 0", "s 0", "s 0"]);
        assert_eq!(st.player(0).state(), PenState::Down);
        // Player 1 (pen up) steps onto (6,5), on player 0's trail.
        turn(&mut st, ["r 0", "d 0", "s 0", "s 0"]);
        assert_eq!(st.player(0).state(), PenState::Dead);
        assert_eq!(st.player(1).state(), PenState::Up);
        assert_eq!(st.trail(0).len(), 0, "a dead player's trail vanishes");
        // Pen-up players overlapping: nothing.
        let mut st = State::new([(5, 5), (6, 5), (10, 10), (10, 0)]);
        turn(&mut st, ["r 0", "s 0", "s 0", "s 0"]);
        assert_eq!(st.alive_count(), 4);
    }

    #[test]
    fn overlap_of_two_pen_down_kills_both() {
        let mut st = State::new([(4, 5), (6, 5), (10, 10), (10, 0)]);
        turn(&mut st, ["r 1", "l 1", "s 0", "s 0"]);
        assert_eq!(st.player(0).state(), PenState::Dead);
        assert_eq!(st.player(1).state(), PenState::Dead);
        assert_eq!(pos(&st, 0), (5, 5));
    }

    #[test]
    fn start_vertex_counts() {
        let mut st = State::new([(4, 5), (4, 6), (10, 10), (10, 0)]);
        turn(&mut st, ["r 1", "s 0", "s 0", "s 0"]);
        turn(&mut st, ["r 0", "u 0", "s 0", "s 0"]);
        assert_eq!(st.player(0).state(), PenState::Dead);
    }

    #[test]
    fn figure_4_closing_wins() {
        // Player 1 steps onto player 0's trail as the loop closes: nobody is
        // hurt.
        let mut st = State::new([(0, 0), (3, 1), (10, 10), (10, 0)]);
        for (i, cm) in SQUARE2.iter().enumerate() {
            let p1 = if i == 7 { "l 0" } else { "s 0" };
            turn(&mut st, [cm, p1, "s 0", "s 0"]);
        }
        assert_eq!(st.player(0).state(), PenState::Up);
        assert_eq!(st.score(0), 10 * 16 + 4);
        assert_eq!(st.player(1).state(), PenState::Up);
        assert_eq!(pos(&st, 1), (2, 1));
    }

    #[test]
    fn figure_4_on_the_closing_vertex() {
        // Player 0 closes the unit square at (1,0) as player 1 arrives there.
        let mut st = State::new([(1, 0), (2, 0), (10, 10), (10, 0)]);
        for (a, b) in [
            ("d 1", "s 0"),
            ("l 0", "s 0"),
            ("u 0", "s 0"),
            ("r 0", "l 0"),
        ] {
            turn(&mut st, [a, b, "s 0", "s 0"]);
        }
        assert_eq!(pos(&st, 0), (1, 0));
        assert_eq!(pos(&st, 1), (1, 0));
        assert_eq!(st.owner(0, 0), Some(0));
        assert_eq!(st.player(0).state(), PenState::Up);
        assert_eq!(st.player(1).state(), PenState::Up);
    }

    #[test]
    fn figure_5_all_four_die() {
        let mut st = State::new([(2, 2), (3, 2), (3, 3), (2, 3)]);
        turn(&mut st, ["s 1", "s 1", "s 1", "s 1"]);
        assert_eq!(st.alive_count(), 4);
        turn(&mut st, ["r 0", "d 0", "l 0", "u 0"]);
        assert_eq!(st.alive_count(), 0);
        assert!(st.is_over());
        assert_eq!(st.scores_i32(), [4, 3, 2, 1]);
    }
}

mod end {
    use super::*;

    #[test]
    fn hundred_turns() {
        let mut st = State::new([(0, 0), (10, 10), (10, 0), (0, 10)]);
        for t in 0..100 {
            assert!(!st.is_over(), "turn {t}");
            turn(&mut st, ["s 0", "s 0", "s 0", "s 0"]);
        }
        assert!(st.is_over());
        assert_eq!(st.scores_i32(), [4, 3, 2, 1]);
        assert!(!st.is_active(0));
    }

    #[test]
    fn survivor_takes_the_rest() {
        let mut st = State::new([(5, 5), (0, 0), (0, 10), (0, 5)]);
        for cm in ["r 1", "d 0", "l 0", "u 0"] {
            turn(&mut st, ["s 0", cm, "s 0", "s 0"]);
        }
        turn(&mut st, ["s 0", "l 0", "l 0", "l 0"]);
        assert!(st.is_over());
        assert_eq!(st.scores_i32(), [10 * 99 * 99 + 4, 10 + 3, 2, 1]);
    }

    #[test]
    fn survivor_gets_one_region_per_component() {
        // Player 1 walls off cells with a line of land? Simpler: everyone but
        // player 0 dies at once with no land: one region of 100.
        let mut st = State::new([(5, 5), (0, 0), (0, 10), (0, 5)]);
        turn(&mut st, ["s 0", "u 0", "l 0", "s -1"]);
        assert!(st.is_over());
        assert_eq!(st.score(0), 10 * 100 * 100 + 4);
        assert_eq!(st.regions().count(), 1);
    }

    #[test]
    fn bad_starts() {
        let st = State::new([(5, 5), (11, 0), (-1, 3), (0, 5)]);
        assert_eq!(
            status(&st),
            "[STATUS] 5 5 0 0 0 0 0 -1 0 0 0 0 -1 0 0 0 5 0 0 0 0"
        );
        let st = State::new([(5, 5), (11, 0), (-1, 3), (0, 11)]);
        assert!(st.is_over());
        assert_eq!(st.score(0), 100_004);
    }

    #[test]
    fn score_formula() {
        let mut st = solo((0, 0));
        walk(&mut st, &["r 1", "d 0", "l 0", "u 0"]);
        walk(&mut st, &["r 0", "r 1", "r 0", "d 0", "l 0", "l 0", "u 0"]);
        walk(&mut st, &["r -1"]);
        // Regions of 1 and 2 cells, one skill.
        assert_eq!(st.score(0), 10 * (1 + 4) + 4 - 10);
        let mut out = [0.0; 4];
        Game::scores(&st, &mut out);
        assert_eq!(out, [44.0, 3.0, 2.0, 1.0]);
    }
}

/// A random command: mostly legal, sometimes anything, rarely unreadable.
fn random_order(st: &State, p: usize, rng: &mut Rng) -> Command {
    let r = rng.below(100);
    if r < 2 {
        Command::INVALID
    } else if r < 8 {
        let dir = Dir::ALL[rng.index(5)];
        let pen = [Pen::Keep, Pen::Down, Pen::Skill][rng.index(3)];
        Command::new(dir, pen)
    } else {
        st.random_command(p, rng)
    }
}

fn random_start(rng: &mut Rng) -> State {
    State::new(enclosure::random_starts(rng))
}

#[test]
fn random_games_undo_round_trip() {
    let mut rng = Rng::new(5);
    for _ in 0..300 {
        let mut st = random_start(&mut rng);
        let start = st.clone();
        let mut seen = vec![st.clone()];
        while !st.is_over() {
            let mut orders = [Command::STAY; PLAYERS];
            for (p, o) in orders.iter_mut().enumerate() {
                *o = random_order(&st, p, &mut rng);
            }
            let before = st.clone();
            st.apply_unchecked(&orders);
            let after = st.clone();
            assert!(st.undo());
            assert_eq!(st, before);
            st.apply_unchecked(&orders);
            assert_eq!(st, after);
            seen.push(st.clone());
        }
        seen.pop();
        while let Some(prev) = seen.pop() {
            assert!(st.undo());
            assert_eq!(st, prev);
        }
        assert!(!st.undo());
        assert_eq!(st, start);
    }
}

#[test]
fn random_games_status_rebuild() {
    let mut rng = Rng::new(11);
    let mut games = 0;
    let mut turns = 0;
    for _ in 0..300 {
        let mut st = random_start(&mut rng);
        let mut tracker = Tracker::new(&Status::of(&st));
        while !st.is_over() {
            let mut orders = [Command::STAY; PLAYERS];
            for (p, o) in orders.iter_mut().enumerate() {
                *o = random_order(&st, p, &mut rng);
            }
            st.apply_unchecked(&orders);
            let diff = tracker.observe(&Status::of(&st));
            assert!(
                diff.is_empty(),
                "{diff:?} {orders:?}\n{st}\n{:?}",
                tracker.state()
            );
            // Land, regions and the trails of the living agree too.
            let rebuilt = tracker.state();
            for j in 0..10 {
                for i in 0..10 {
                    assert_eq!(rebuilt.owner(i, j), st.owner(i, j));
                }
            }
            assert_eq!(rebuilt.scores_i32(), st.scores_i32());
            for p in 0..PLAYERS {
                if st.player(p).is_alive() {
                    assert_eq!(rebuilt.trail(p), st.trail(p), "player {p}\n{st}");
                }
            }
            turns += 1;
        }
        games += 1;
    }
    assert!(games == 300 && turns > 1000);
}

#[test]
fn stepping_past_the_end_and_tracking_a_long_game_never_panics() {
    let mut st = State::new([(0, 0), (10, 10), (10, 0), (0, 10)]);
    let first = Status::of(&st);
    let mut tracker = Tracker::new(&first);
    for _ in 0..250 {
        turn(&mut st, ["s 0", "s 0", "s 0", "s 0"]);
        let _ = tracker.observe(&first);
    }
    assert!(st.is_over());
    assert_eq!(st.turn(), 100);
    assert_eq!(tracker.state().turn(), 100);
}

#[test]
fn no_allocation_in_apply_undo_legal_and_rollout() {
    let mut rng = Rng::new(3);
    let mut st = random_start(&mut rng);
    let ((), allocations) = common::count_allocations(|| {
        let mut cs = Commands::new();
        for _ in 0..50 {
            for p in 0..PLAYERS {
                st.legal_commands(p, &mut cs);
            }
            let n = st.random_playout(&mut rng);
            for _ in 0..n {
                st.undo();
            }
            let joint = [Command::STAY; PLAYERS];
            Game::apply_unchecked(&mut st, &joint);
            Game::undo(&mut st);
            let n = search::rollout(&mut st, 100, &mut rng);
            for _ in 0..n {
                st.undo();
            }
        }
    });
    assert_eq!(allocations, 0);
    // The search allocates its storage once, up front: as much for 400
    // rollouts as for 20.
    let deadline = Deadline::after(Duration::from_secs(30));
    let mut search = |rollouts: u64, st: &mut State| {
        let limits = Limits {
            max_rollouts: Some(rollouts),
            check_every: 1,
        };
        common::count_allocations(|| {
            FlatMc::new(limits)
                .depth(search::ROLLOUT_DEPTH as u32 + 1)
                .candidates(|c: Command| c.pen != Pen::Skill)
                .evaluator(search::value)
                .search(st, 0, &deadline, &mut rng, &mut search::RolloutPolicy)
        })
    };
    let (few, a) = search(20, &mut st);
    let (many, b) = search(400, &mut st);
    assert_eq!((few.rollouts, many.rollouts), (20, 400));
    assert_eq!(a, b, "rollouts allocate nothing");
    let choice = search::choose_command(
        &st,
        0,
        &Deadline::after(Duration::from_millis(20)),
        &mut rng,
    );
    assert!(choice.rollouts > 0 && !st.kills_itself(0, choice.best));
}

#[test]
fn duct_search_restores_the_game_and_allocates_only_up_front() {
    use botzone::search::duct;
    let mut rng = Rng::new(4);
    let mut st = State::new([(2, 2), (8, 2), (2, 8), (8, 8)]);
    let start = st.clone();
    let deadline = Deadline::after(Duration::from_secs(30));
    let mut run = |iterations: u64, st: &mut State| {
        common::count_allocations(|| {
            let config = duct::Config {
                max_iterations: Some(iterations),
                ..duct::Config::default()
            };
            duct::search(
                st,
                1,
                &deadline,
                &mut rng,
                &mut search::RolloutPolicy,
                config,
            )
        })
    };
    let (small, few) = run(20, &mut st);
    let (big, many) = run(400, &mut st);
    assert_eq!(small.rollouts, 20);
    assert_eq!(big.rollouts, 400);
    assert_eq!(few, many, "iterations allocate nothing");
    assert_eq!(st, start);
    assert!(!st.kills_itself(1, big.best));
    let visits: u64 = big.arms.iter().map(|a| a.visits).sum();
    assert_eq!(visits, 400);
}
