//! The Tank judge's field generator, and its `initdata`.

use super::{Bricks, MAX_TURNS};
use crate::crand::GlibcRand;

/// A field as the judge's `initdata` gives it:
/// `{"field":[b0,b1,b2],"maxTurn":100,"seed":N}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Map {
    /// The bricks (see [`Bricks`]).
    pub bricks: Bricks,
    /// The turn limit as `initdata` gives it (`maxTurn`, 100 on Botzone);
    /// a [`super::Field`] plays at most [`super::TURN_CAPACITY`] turns, and
    /// none for a negative limit.
    pub max_turns: i32,
    /// The seed the judge drew the bricks from, when known.
    pub seed: Option<u32>,
}

impl Map {
    /// The field the judge draws for `seed`, with its turn limit.
    pub fn generate(seed: u32) -> Map {
        Map {
            bricks: bricks_from_seed(seed),
            max_turns: MAX_TURNS as i32,
            seed: Some(seed),
        }
    }

    /// The judge's `initdata` as one compact JSON line, fields in the
    /// judge's order: `{"field":[b0,b1,b2],"maxTurn":100,"seed":N}` (no
    /// `seed` when unknown).
    pub fn to_json(&self) -> String {
        let [b0, b1, b2] = self.bricks;
        let seed = match self.seed {
            Some(seed) => format!(",\"seed\":{seed}"),
            None => String::new(),
        };
        format!(
            "{{\"field\":[{b0},{b1},{b2}],\"maxTurn\":{}{seed}}}",
            self.max_turns
        )
    }
}

/// The bricks the Botzone Tank judge draws for `seed` (its initdata
/// `field`): after `srand(seed)`, `rand() % 3 > 1` for each cell of rows
/// 0..5, a few cells forced around the bases and the starting tanks, the
/// whole mirrored through the centre, then column 4 (rows 2..=6) and row 4
/// filled. Matches the judge on every golden seed.
pub fn bricks_from_seed(seed: u32) -> Bricks {
    let mut rand = GlibcRand::new(seed);
    let mut brick = [[false; 9]; 9];
    for row in brick.iter_mut().take(5) {
        for b in row.iter_mut() {
            *b = rand.rand() % 3 > 1;
        }
    }
    // (x, y) = (5,1), (3,1), (5,0), (3,0) on; (4,0), (4,1), (6,0), (2,0) off.
    brick[1][5] = true;
    brick[1][3] = true;
    brick[0][5] = true;
    brick[0][3] = true;
    brick[0][4] = false;
    brick[1][4] = false;
    brick[0][6] = false;
    brick[0][2] = false;
    for y in 0..5 {
        for x in 0..9 {
            brick[8 - y][8 - x] = brick[y][x];
        }
    }
    for row in brick.iter_mut().take(7).skip(2) {
        row[4] = true;
    }
    brick[4] = [true; 9];
    let mut out = [0u32; 3];
    for (i, word) in out.iter_mut().enumerate() {
        for j in 0..27 {
            let c = 27 * i + j;
            if brick[c / 9][c % 9] {
                *word |= 1 << j;
            }
        }
    }
    out
}
