//! An opponent model for deterministic opponents: what a player did the
//! last two times a position stood, it does again.
//!
//! Many bots choose by the position alone (a search or rules without
//! randomness), or by the position and what they saw there before (a bot
//! that assumes we repeat ourselves answers the same way each time the
//! position comes back). Such a player, met in a position it has met
//! before, plays what it played there. A search that knows the reply can
//! answer it (see [`crate::search::alphabeta::AlphaBeta::expect_reply`])
//! instead of the worst reply, and take what a max-min search leaves.
//!
//! [`repeated_reply`] predicts only from a position seen at least twice
//! with the same action both times, and only while the predictions it
//! would have made so far came true: at most one in eight may have
//! failed. Both are read from the match's history alone, so a bot
//! started afresh each turn (Botzone's traditional mode) predicts as one
//! kept running.
//!
//! ```
//! use botzone::search::repeat::repeated_reply;
//!
//! // (position key, the opponent's action there), turn by turn.
//! let history = [(7, 'a'), (9, 'x'), (7, 'b'), (9, 'x'), (7, 'b')];
//! assert_eq!(repeated_reply(&history, 7), Some('b')); // b, b the last two times
//! assert_eq!(repeated_reply(&history, 9), Some('x'));
//! assert_eq!(repeated_reply(&history, 5), None); // never seen
//! assert_eq!(repeated_reply(&history[..3], 7), None); // a, then b
//! ```

/// The most failed predictions allowed: one in this many made.
const MISS_RATIO: usize = 8;

/// The action the opponent is expected to play in the position with
/// `key`, from `history` (each past turn's position key and the action the
/// opponent played there, oldest first): its action of the last two times
/// the position stood when those agree, and `None` otherwise, or when more
/// than one in eight of the predictions this rule would have made over
/// `history` failed.
pub fn repeated_reply<A: Copy + PartialEq>(history: &[(u64, A)], key: u64) -> Option<A> {
    let (mut made, mut missed) = (0, 0);
    for (t, &(past, played)) in history.iter().enumerate() {
        if let Some(p) = last_two_agree(&history[..t], past) {
            made += 1;
            missed += usize::from(p != played);
        }
    }
    if missed * MISS_RATIO > made {
        return None;
    }
    last_two_agree(history, key)
}

/// The action of the last two entries of `history` with `key`, when there
/// are two and they agree.
fn last_two_agree<A: Copy + PartialEq>(history: &[(u64, A)], key: u64) -> Option<A> {
    let mut seen = history.iter().rev().filter(|e| e.0 == key).map(|e| e.1);
    match (seen.next(), seen.next()) {
        (Some(a), Some(b)) if a == b => Some(a),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn predicts_only_what_the_last_two_visits_agree_on() {
        assert_eq!(repeated_reply::<u8>(&[], 1), None);
        assert_eq!(repeated_reply(&[(1, 3u8)], 1), None);
        assert_eq!(repeated_reply(&[(1, 3u8), (2, 4), (1, 3)], 1), Some(3));
        // The older visit does not count once the last two differ.
        assert_eq!(repeated_reply(&[(1, 3u8), (1, 3), (1, 5)], 1), None);
        assert_eq!(repeated_reply(&[(1, 3u8), (1, 5), (1, 5)], 1), Some(5));
    }

    #[test]
    fn stops_predicting_an_opponent_that_broke_its_pattern() {
        // Position 1 twice with 3, then with 4: the third visit was
        // predicted (3) and missed; one miss in one prediction.
        let mut history = vec![(1, 3u8), (1, 3), (1, 4), (2, 0), (2, 0)];
        assert_eq!(repeated_reply(&history, 2), None);
        // Seven kept predictions later (position 2 again and again), one
        // miss in eight is allowed.
        for _ in 0..7 {
            history.push((2, 0));
        }
        assert_eq!(repeated_reply(&history, 2), Some(0));
    }
}
