use botzone::games::pacman2::policy::GreedyPolicy;
use botzone::games::pacman2::{Action, Map, Pacman2, PLAYERS};
use botzone::rng::Rng;
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let w: i32 = a[1].parse().unwrap();
    let (mut opp, mut shots) = (0u64, 0u64);
    for seed in 1..=20u32 {
        let mut game = Pacman2::new(&Map::generate(seed));
        let policy = GreedyPolicy::new(&game).with_shot_weights([w; PLAYERS]);
        let mut rng = Rng::new(u64::from(seed));
        for _ in 0..200 {
            let mut t = 0;
            while t < 40 && !game.is_over() {
                let j = policy.joint(&game, &mut rng);
                for p in 0..PLAYERS {
                    if !game.is_alive(p) || game.player(p).strength <= game.constants().skill_cost {
                        continue;
                    }
                    // someone in any beam line: try each shot on a copy
                    let mut any = false;
                    for d in 4..8i64 {
                        let before: Vec<i32> =
                            (0..PLAYERS).map(|q| game.player(q).strength).collect();
                        let mut joint = [Action::Stay; PLAYERS];
                        joint[p] = Action::from_code(d);
                        game.apply_unchecked(&joint);
                        let hit =
                            (0..PLAYERS).any(|q| q != p && game.player(q).strength < before[q] - 1);
                        game.undo();
                        any |= hit;
                    }
                    if any {
                        opp += 1;
                        if j[p].is_shot() {
                            shots += 1;
                        }
                    }
                }
                game.apply_unchecked(&j);
                t += 1;
            }
            for _ in 0..t {
                game.undo();
            }
        }
    }
    println!(
        "w={w} opportunities {opp} shots {shots} rate {:.3}",
        shots as f64 / opp as f64
    );
}
