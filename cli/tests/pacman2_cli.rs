//! `botzone map pacman2` and `botzone bench pacman2` as programs.

#[path = "../../tests/common/mod.rs"]
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

/// A fake peer benchmark: keeps a copy of its map argument, then burns CPU
/// in proportion to its playout count (or fails, for `FAIL`).
fn fake_peer(dir: &std::path::Path, body: &str) -> std::path::PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join("peer.sh");
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

#[test]
fn bench_versus_runs_the_peer_on_the_same_map_and_reports_the_ratio() {
    let dir = common::scratch("versus");
    let peer = fake_peer(
        &dir,
        &format!(
            "cp \"$1\" '{0}/map.json'; echo \"$1\" > '{0}/map-path'; echo \"$2\" >> '{0}/counts'\n\
             i=0; while [ $i -lt \"$2\" ]; do i=$((i+1)); done\n\
             echo \"$2 playouts\"",
            dir.display()
        ),
    );
    let out = Command::new(common::bin("botzone"))
        .args(["bench", "pacman2", "--seed", "3", "--seconds", "0.1"])
        .args(["--rounds", "2", "--json", "--versus"])
        .arg(&peer)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The peer got the judge's map of the seed, in a file removed after.
    let map = Command::new(common::bin("botzone"))
        .args(["map", "pacman2", "--seed", "3"])
        .output()
        .unwrap();
    let given = std::fs::read_to_string(dir.join("map.json")).unwrap();
    assert_eq!(
        given.trim_end(),
        String::from_utf8_lossy(&map.stdout).trim_end()
    );
    let map_path = std::fs::read_to_string(dir.join("map-path")).unwrap();
    assert!(!std::path::Path::new(map_path.trim_end()).exists());
    // Calibration runs, then one run a round with the same count.
    let counts: Vec<u64> = std::fs::read_to_string(dir.join("counts"))
        .unwrap()
        .lines()
        .map(|l| l.parse().unwrap())
        .collect();
    let n = counts.len();
    assert!(n >= 3 && counts[n - 1] == counts[n - 2], "{counts:?}");
    assert_eq!(text.matches("round ").count(), 2, "{text}");
    let last: serde_json::Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    let ratios = last["ratios"].as_array().unwrap();
    assert_eq!(ratios.len(), 2);
    let (ours, theirs) = (
        last["playouts_per_cpu_second"].as_f64().unwrap(),
        last["versus_playouts_per_cpu_second"].as_f64().unwrap(),
    );
    assert!(
        ours > 0.0 && theirs > 0.0 && last["ratio"].as_f64().unwrap() > 0.0,
        "{last}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bench_versus_reports_a_failing_peer() {
    let dir = common::scratch("versus-fail");
    let peer = fake_peer(&dir, "echo 'cannot read the map' >&2; exit 3");
    let out = Command::new(common::bin("botzone"))
        .args(["bench", "pacman2", "--seconds", "0.1", "--versus"])
        .arg(&peer)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("cannot read the map") && err.contains("peer.sh"),
        "{err}"
    );
    // A peer that never ends is stopped (after 10 x 0.1 s + 5 s).
    let peer = fake_peer(&dir, "exec sleep 1000");
    let t0 = std::time::Instant::now();
    let out = Command::new(common::bin("botzone"))
        .args(["bench", "pacman2", "--seconds", "0.1", "--versus"])
        .arg(&peer)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("killed"), "{err}");
    assert!(t0.elapsed().as_secs() < 30);
    for args in [
        vec!["bench", "enclosure", "--versus", "/bin/true"],
        vec!["bench", "pacman2", "--versus", "/nonexistent/peer"],
    ] {
        let out = Command::new(common::bin("botzone"))
            .args(&args)
            .output()
            .unwrap();
        assert!(!out.status.success(), "{args:?}");
        assert!(!out.stderr.is_empty(), "{args:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
