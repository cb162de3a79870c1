//! The games. Each module holds a fixed-array state with apply and undo,
//! legal actions into a fixed-capacity list, scores and an ASCII rendering;
//! [`Game`] lets search code and the arena treat them alike.

use std::fmt::Debug;
use std::ops::Deref;

pub mod enclosure;
pub mod pacman2;
pub mod tank;

/// A simultaneous-move game with undo, as search sees it.
///
/// A turn is a joint action: one action per player (players who take no
/// part this turn, such as dead ones, get any action; the game ignores it).
/// Implementations never allocate in `legal_actions`, `apply`, `undo` or
/// `scores`.
pub trait Game: Clone {
    /// One player's action in one turn.
    type Action: Copy + Eq + Default + Debug;
    /// A fixed-capacity list of actions (a [`crate::fixed::FixedList`]).
    type Actions: Default + Deref<Target = [Self::Action]>;

    /// The number of seats.
    fn player_count(&self) -> usize;
    /// Whether the game has ended.
    fn is_over(&self) -> bool;
    /// Whether `player` takes part in the next turn (alive, game not over).
    fn is_active(&self, player: usize) -> bool;
    /// Replaces `out` with the legal actions of `player` this turn (at
    /// least one for an active player).
    fn legal_actions(&self, player: usize, out: &mut Self::Actions);
    /// Plays one joint turn (`joint[p]` is player `p`'s action). Actions
    /// must come from `legal_actions`; anything else is the caller's bug
    /// and gives an unspecified (but memory-safe) state.
    fn apply(&mut self, joint: &[Self::Action]);
    /// Takes back the last applied turn. Returns `false` when there is
    /// nothing to take back.
    fn undo(&mut self) -> bool;
    /// Writes every player's score so far (the final score once the game is
    /// over) into `out[..player_count()]`, in the platform's units.
    fn scores(&self, out: &mut [f64]);
}
