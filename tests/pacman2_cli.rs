//! `botzone map pacman2` and `botzone bench pacman2` as programs.

mod common;

use std::process::Command;

#[test]
fn map_prints_the_judge_initdata_line() {
    let golden = std::fs::read_to_string(common::fixture("pacman2/pacman2_maps.jsonl")).unwrap();
    for (seed, want) in [(1usize, 0usize), (57, 56), (200, 199)] {
        let out = Command::new(common::bin("botzone"))
            .args(["map", "pacman2", "--seed", &seed.to_string()])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8(out.stdout).unwrap();
        let line = golden.lines().nth(want).unwrap();
        assert_eq!(
            text.trim_end(),
            line,
            "seed {seed}: same fields, same order"
        );
    }
}

#[test]
fn bench_reports_playouts_and_turns_per_second() {
    let out = Command::new(common::bin("botzone"))
        .args([
            "bench",
            "pacman2",
            "--seed",
            "3",
            "--seconds",
            "0.2",
            "--json",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let last: serde_json::Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    assert!(
        last["playouts_per_second"].as_f64().unwrap() > 0.0,
        "{text}"
    );
    assert!(
        last["turns_per_second"].as_f64().unwrap() > last["playouts_per_second"].as_f64().unwrap()
    );
}
