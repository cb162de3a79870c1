//! The Tank judge's field generator.

use super::Bricks;
use crate::crand::GlibcRand;

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
