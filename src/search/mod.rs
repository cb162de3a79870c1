//! Ready search over [`crate::games::Game`]: flat Monte Carlo,
//! alpha-beta over joint moves for two players, and decoupled UCT for
//! simultaneous moves. All stop at a [`crate::time::Deadline`] and reuse
//! preallocated storage. [`repeat`] predicts a deterministic opponent's
//! reply from the match's history.

pub mod alphabeta;
pub mod duct;
pub mod flat_mc;
pub mod repeat;
