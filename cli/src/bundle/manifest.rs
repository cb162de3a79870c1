//! Just enough of Cargo.toml: `[package]` fields and `[[bin]]` entries, read
//! line by line (no TOML crate is available to the tool).

use std::fs;
use std::path::{Path, PathBuf};

use super::CargoEnv;
use crate::CliError;

/// One `[[bin]]` target.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Bin {
    /// `name = "..."`.
    pub(crate) name: String,
    /// `path = "..."`, or Cargo's default `src/bin/<name>.rs`.
    pub(crate) path: String,
}

/// The nearest directory at or above `start` holding a Cargo.toml.
pub(crate) fn find_manifest_dir(start: &Path) -> Option<PathBuf> {
    let mut dir = Some(start);
    while let Some(d) = dir {
        if d.join("Cargo.toml").is_file() {
            return Some(d.to_path_buf());
        }
        dir = d.parent();
    }
    None
}

/// A `key = "value"` line's value, if the line is one.
fn string_value(line: &str, key: &str) -> Option<String> {
    let line = line.trim();
    let rest = line.strip_prefix(key)?.trim_start();
    let rest = rest.strip_prefix('=')?.trim();
    let rest = rest.strip_prefix('"')?;
    let end = rest.find('"')?;
    Some(rest[..end].to_string())
}

/// The `[[bin]]` entries of a Cargo.toml, in order.
pub(crate) fn bins(toml: &str) -> Vec<Bin> {
    let mut out = Vec::new();
    let mut current: Option<(Option<String>, Option<String>)> = None;
    let mut flush = |cur: &mut Option<(Option<String>, Option<String>)>| {
        if let Some((Some(name), path)) = cur.take() {
            let path = path.unwrap_or_else(|| format!("src/bin/{name}.rs"));
            out.push(Bin { name, path });
        }
    };
    for line in toml.lines() {
        let t = line.trim();
        if t.starts_with('[') {
            flush(&mut current);
            if t.starts_with("[[bin]]") {
                current = Some((None, None));
            }
            continue;
        }
        if let Some((name, path)) = current.as_mut() {
            if let Some(v) = string_value(t, "name") {
                *name = Some(v);
            } else if let Some(v) = string_value(t, "path") {
                *path = Some(v);
            }
        }
    }
    flush(&mut current);
    out
}

/// A string field of the `[package]` section.
pub(crate) fn package_field(toml: &str, key: &str) -> Option<String> {
    let mut in_package = false;
    for line in toml.lines() {
        let t = line.trim();
        if t.starts_with('[') {
            in_package = t == "[package]";
            continue;
        }
        if in_package {
            if let Some(v) = string_value(t, key) {
                return Some(v);
            }
        }
    }
    None
}

/// The `env!("CARGO_PKG_*")` values Cargo would give a target of the
/// package at `root` (crate name `crate_name`).
pub(crate) fn package_env(
    manifest: &Path,
    crate_name: &str,
    root: &Path,
) -> Result<CargoEnv, CliError> {
    let text = fs::read_to_string(manifest)
        .map_err(|e| format!("cannot read {}: {e}", manifest.display()))?;
    let mut env = CargoEnv::default();
    let name = package_field(&text, "name").unwrap_or_default();
    let version = package_field(&text, "version").unwrap_or_default();
    let mut parts = version.split(['.', '-', '+']);
    for key in [
        "CARGO_PKG_VERSION_MAJOR",
        "CARGO_PKG_VERSION_MINOR",
        "CARGO_PKG_VERSION_PATCH",
    ] {
        env.vars
            .insert(key.into(), parts.next().unwrap_or("").to_string());
    }
    for (key, field) in [
        ("CARGO_PKG_DESCRIPTION", "description"),
        ("CARGO_PKG_LICENSE", "license"),
        ("CARGO_PKG_REPOSITORY", "repository"),
        ("CARGO_PKG_HOMEPAGE", "homepage"),
        ("CARGO_PKG_RUST_VERSION", "rust-version"),
    ] {
        env.vars
            .insert(key.into(), package_field(&text, field).unwrap_or_default());
    }
    env.vars.insert("CARGO_PKG_NAME".into(), name);
    env.vars.insert("CARGO_PKG_VERSION".into(), version);
    env.vars
        .insert("CARGO_CRATE_NAME".into(), crate_name.replace('-', "_"));
    env.vars.insert(
        "CARGO_MANIFEST_DIR".into(),
        root.to_string_lossy().into_owned(),
    );
    Ok(env)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_bins_and_package_fields() {
        let toml = "[package]\nname = \"botzone\"\nversion = \"0.1.0\"\n\n[[bin]]\nname = \"a\"\npath = \"bots/a.rs\"\n\n[profile.release]\nopt-level = 3\n\n[[bin]]\nname = \"b\"\n[[bench]]\nname = \"x\"\n";
        assert_eq!(
            bins(toml),
            vec![
                Bin {
                    name: "a".into(),
                    path: "bots/a.rs".into()
                },
                Bin {
                    name: "b".into(),
                    path: "src/bin/b.rs".into()
                },
            ]
        );
        assert_eq!(package_field(toml, "name").as_deref(), Some("botzone"));
        assert_eq!(package_field(toml, "version").as_deref(), Some("0.1.0"));
        assert_eq!(package_field(toml, "opt-level"), None);
    }
}
