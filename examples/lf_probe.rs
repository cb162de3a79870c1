use botzone::games::pacman2::policy::{evaluate, GreedyPolicy};
use botzone::games::pacman2::{Action, Map, Pacman2, PLAYERS};
use botzone::json;
use botzone::rng::Rng;
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let text = std::fs::read_to_string(&a[1]).unwrap();
    let v = json::Value::parse(&text).unwrap();
    let map = Map::from_json(&v).unwrap();
    let first: Vec<i64> = a[2].split(',').map(|x| x.parse().unwrap()).collect();
    let depth: u32 = a.get(3).map_or(20, |x| x.parse().unwrap());
    let mut game = Pacman2::new(&map);
    let policy = GreedyPolicy::new(&game)
        .with_shot_weights([a.get(4).map_or(30, |x| x.parse().unwrap()); PLAYERS]);
    let mut rng = Rng::new(7);
    let n = 20000;
    let mut tot = [0.0; PLAYERS];
    let mut dead = [0; PLAYERS];
    let mut st = [0i64; PLAYERS];
    let mut kills = [[0u32; PLAYERS]; PLAYERS];
    let mut why = [0u32; 3];
    for _ in 0..n {
        let mut joint = [Action::Stay; PLAYERS];
        for p in 0..PLAYERS {
            joint[p] = Action::from_code(first[p]);
        }
        let mut t = 0;
        game.apply_unchecked(&joint);
        t += 1;
        while t < depth && !game.is_over() {
            let j = policy.joint(&game, &mut rng);
            let before: Vec<_> = (0..PLAYERS).map(|p| game.player(p)).collect();
            let shot = j
                .iter()
                .enumerate()
                .any(|(p, a)| game.is_alive(p) && a.code() >= 4);
            game.apply_unchecked(&j);
            t += 1;
            for p in 0..PLAYERS {
                if !before[p].dead && !game.is_alive(p) {
                    let k = if before[p].power_up_left == 1 {
                        0
                    } else if shot {
                        1
                    } else {
                        2
                    };
                    why[k] += 1;
                }
            }
        }
        for p in 0..PLAYERS {
            tot[p] += evaluate(&game, p);
            st[p] += i64::from(game.player(p).strength);
            if !game.is_alive(p) {
                dead[p] += 1;
            }
        }
        for _ in 0..t {
            game.undo();
        }
    }
    let m: Vec<String> = tot.iter().map(|x| format!("{:.2}", x / n as f64)).collect();
    let sm: Vec<String> = st
        .iter()
        .map(|x| format!("{:.1}", *x as f64 / n as f64))
        .collect();
    println!("strength {}", sm.join(" "));
    let _ = &kills;
    println!(
        "{} dead {:?} expiry/beam/eaten {:?}",
        m.join(" "),
        dead,
        why
    );
}
