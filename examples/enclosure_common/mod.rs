//! What the Enclosure self-play examples share: a game of four
//! [`Pilot`]s played to its end, and a mean with its 95% interval.

use botzone::games::enclosure::plan::{Params, Pilot};
use botzone::games::enclosure::{Command, State, PLAYERS};

/// Plays one game from `starts` to its end, seat `p` on `params[p]`;
/// every player's score.
pub fn play(starts: [(i32, i32); PLAYERS], params: [Params; PLAYERS]) -> [i32; PLAYERS] {
    let mut st = State::new(starts);
    let mut pilots = params.map(Pilot::new);
    while !st.is_over() {
        let mut joint = [Command::STAY; PLAYERS];
        for (p, pilot) in pilots.iter_mut().enumerate() {
            if st.player(p).is_alive() {
                joint[p] = pilot.command(&st, p).0;
            }
        }
        st.apply_unchecked(&joint);
    }
    st.scores_i32()
}

/// The mean of `xs` and the half width of its 95% interval (normal).
pub fn mean_and_half_width(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    (mean, 1.96 * (var / n).sqrt())
}
