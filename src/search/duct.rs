//! Decoupled UCT for simultaneous moves: not written yet. Enclosure's bot
//! uses flat Monte Carlo (`crate::games::enclosure::search`) instead.
