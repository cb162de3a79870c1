//! Experiment probe: how often a player standing in the beam line of a
//! player able to shoot stays in that line through the next turn, when
//! every player follows the rollout policy at one shot weight (judge maps
//! 8101..=8120, 100 rollouts of 40 turns each).
use botzone::games::pacman2::policy::GreedyPolicy;
use botzone::games::pacman2::{Map, Pacman2, PLAYERS};
use botzone::rng::Rng;

fn beam(g: &Pacman2, r: usize, c: usize, d: usize) -> Vec<(usize, usize)> {
    let (h, w) = (g.height(), g.width());
    let dr = [h - 1, 0, 1, 0];
    let dc = [0, 1, 0, w - 1];
    let mut out = vec![];
    let (mut rr, mut cc) = (r, c);
    while g.static_at(rr, cc) & (1 << d) == 0 {
        rr = (rr + dr[d]) % h;
        cc = (cc + dc[d]) % w;
        if (rr, cc) == (r, c) {
            break;
        }
        out.push((rr, cc));
    }
    out
}

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let w: i32 = a.get(1).map_or(30, |s| s.parse().unwrap());
    let (mut exp, mut stay, mut wexp, mut wstay) = (0u64, 0u64, 0u64, 0u64);
    for seed in 1..=20u32 {
        let mut game = Pacman2::new(&Map::generate(seed + 8100));
        let policy = GreedyPolicy::new(&game).with_shot_weights([w; PLAYERS]);
        let mut rng = Rng::new(u64::from(seed));
        for _ in 0..100 {
            let mut t = 0;
            while t < 40 && !game.is_over() {
                let j = policy.joint(&game, &mut rng);
                let before = game.players();
                let mut lines = vec![];
                for p in 0..PLAYERS {
                    if before[p].dead || before[p].strength <= game.constants().skill_cost {
                        continue;
                    }
                    for d in 0..4 {
                        let path = beam(&game, before[p].row, before[p].col, d);
                        for q in 0..PLAYERS {
                            if q != p
                                && !before[q].dead
                                && path.contains(&(before[q].row, before[q].col))
                            {
                                lines.push((q, path.clone()));
                            }
                        }
                    }
                }
                game.apply_unchecked(&j);
                let after = game.players();
                for (q, path) in lines {
                    let s = !after[q].dead && path.contains(&(after[q].row, after[q].col));
                    exp += 1;
                    stay += u64::from(s);
                    if before[q].strength <= 6 {
                        wexp += 1;
                        wstay += u64::from(s);
                    }
                }
                t += 1;
            }
            for _ in 0..t {
                game.undo();
            }
        }
    }
    println!(
        "w={w} exposed {exp} stayed {:.3} | weak exposed {wexp} stayed {:.3}",
        stay as f64 / exp as f64,
        wstay as f64 / wexp as f64
    );
}
