//! `botzone bundle --target js`: a bot as one JavaScript file for Node.js.
//!
//! Botzone runs no Rust, but it runs JavaScript. The `.rs` bundle (the
//! same program `--target rs` writes) is compiled by `rustc` for
//! `wasm32-wasip1`; `wasm-opt` (binaryen) lowers the instructions that
//! WebAssembly 1.0 ("MVP") lacks and that Rust emits by default (sign
//! extension, saturating float-to-int, bulk memory: `memory.copy` and
//! `memory.fill` become the eight-bytes-at-a-time functions of
//! `memory.wat`, not binaryen's byte loops), splits the `i64` parameters of
//! imports into `i32` halves (Node.js before BigInt integration cannot pass
//! an `i64` to JavaScript), strips the target-features section and
//! optimizes with only MVP features enabled, which validates the result as
//! MVP-only. The module goes into `loader.js` as one base64 string literal:
//! plain CommonJS that implements the WASI preview1 calls a bot makes.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use base64::Engine as _;

use crate::CliError;

/// The Rust target the module is built for.
pub(crate) const TARGET: &str = "wasm32-wasip1";

/// binaryen's passes the build needs (`wasm-opt --help` lists them).
const LOWERING_PASSES: [&str; 4] = [
    "--signext-lowering",
    "--llvm-nontrapping-fptoint-lowering",
    "--llvm-memory-copy-fill-lowering",
    "--legalize-js-interface",
];

/// The binaryen release the project tests with (what `.ci/run` installs).
pub(crate) const BINARYEN_VERSION: &str = "132";

/// The loader, with `@@HEADER@@` and `@@WASM_BASE64@@` to fill.
const LOADER: &str = include_str!("loader.js");

/// The MVP `memory.copy`/`memory.fill` replacements.
const MEMORY_WAT: &str = include_str!("memory.wat");

/// A finished JavaScript bundle.
pub(crate) struct JsBundle {
    /// The JavaScript text.
    pub(crate) text: String,
    /// The size of the WebAssembly module inside it, in bytes.
    pub(crate) wasm_bytes: usize,
}

/// Builds the JavaScript bundle of the bot whose `.rs` bundle is `rs_text`.
pub(crate) fn build(rs_text: &str, bot_name: &str, bot_path: &Path) -> Result<JsBundle, CliError> {
    let rustc = rustc();
    let wasm_opt = wasm_opt()?;
    check_target(&rustc)?;
    let dir = tempfile::Builder::new()
        .prefix("botzone-bundle-js-")
        .tempdir()
        .map_err(|e| format!("cannot create a temporary directory: {e}"))?;
    // Named as `botzone bundle BOT` names the .rs bundle, and its directory
    // remapped away: a panic's place reads `BOT.bundle.rs:LINE:COLUMN`, a
    // line of the .rs bundle.
    let source = dir.path().join(format!("{bot_name}.bundle.rs"));
    fs::write(&source, rs_text)?;
    let raw = dir.path().join("raw.wasm");
    let out = Command::new(&rustc)
        .args(["--target", TARGET, "--edition", "2021"])
        .args([
            "-C",
            "opt-level=3",
            "-C",
            "panic=abort",
            "-C",
            "codegen-units=1",
        ])
        .args(["--cap-lints", "allow"])
        .arg(format!("--remap-path-prefix={}/=", dir.path().display()))
        .arg("-o")
        .arg(&raw)
        .arg(&source)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", rustc.display()))?;
    if !out.status.success() {
        return Err(format!(
            "rustc --target {TARGET} failed on the bundle of {}:\n{}",
            bot_path.display(),
            String::from_utf8_lossy(&out.stderr)
        )
        .into());
    }
    let lowered = dir.path().join("lowered.wat");
    run_wasm_opt(
        &wasm_opt,
        Command::new(&wasm_opt)
            .arg(&raw)
            .args([
                "--enable-bulk-memory",
                "--enable-sign-ext",
                "--enable-nontrapping-float-to-int",
                "--enable-mutable-globals",
            ])
            .args(LOWERING_PASSES)
            .args(["--strip-target-features", "--strip-producers", "-S", "-o"])
            .arg(&lowered),
    )?;
    let text = fs::read_to_string(&lowered)?;
    let patched = dir.path().join("patched.wat");
    fs::write(&patched, with_word_copies(&text)?)?;
    let module = dir.path().join("module.wasm");
    run_wasm_opt(
        &wasm_opt,
        Command::new(&wasm_opt)
            .arg(&patched)
            .args([
                "--mvp-features",
                "-O3",
                "--strip-debug",
                "--strip-producers",
                "-o",
            ])
            .arg(&module),
    )?;
    let wasm = fs::read(&module)?;
    let header = format!(
        "{bot_name}: one-file JavaScript bundle of {} made by `botzone bundle --target js` (botzone {}): the bot compiled to WebAssembly 1.0.",
        bot_path.display(),
        env!("CARGO_PKG_VERSION")
    );
    let text = LOADER.replacen("@@HEADER@@", &header, 1).replacen(
        "@@WASM_BASE64@@",
        &base64::engine::general_purpose::STANDARD.encode(&wasm),
        1,
    );
    Ok(JsBundle {
        text,
        wasm_bytes: wasm.len(),
    })
}

/// Replaces the calls of binaryen's byte-by-byte `memory.copy` and
/// `memory.fill` lowerings in a module's text by calls of the functions of
/// `memory.wat`, added to the module.
fn with_word_copies(wat: &str) -> Result<String, CliError> {
    let mut text = wat
        .replace("(call $__memory_copy\n", "(call $__botzone_memory_copy\n")
        .replace("(call $__memory_fill\n", "(call $__botzone_memory_fill\n");
    let end = text
        .trim_end()
        .rfind(')')
        .ok_or("wasm-opt printed no module")?;
    text.insert_str(end, MEMORY_WAT);
    Ok(text)
}

/// Runs one `wasm-opt` command.
fn run_wasm_opt(wasm_opt: &Path, command: &mut Command) -> Result<(), CliError> {
    let out = command
        .output()
        .map_err(|e| format!("cannot run {}: {e}", wasm_opt.display()))?;
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        let shown: String = stderr.lines().take(40).collect::<Vec<_>>().join("\n");
        return Err(format!("wasm-opt failed:\n{shown}").into());
    }
    Ok(())
}

/// The `rustc` to build with: `$RUSTC`, else `rustc` on the PATH.
fn rustc() -> PathBuf {
    std::env::var_os("RUSTC")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("rustc"))
}

/// Checks that `rustc` has the standard library for [`TARGET`].
fn check_target(rustc: &Path) -> Result<(), CliError> {
    let install = format!("install it with: rustup target add {TARGET}");
    let out = Command::new(rustc)
        .args(["--print", "target-libdir", "--target", TARGET])
        .output()
        .map_err(|e| format!("cannot run {}: {e}", rustc.display()))?;
    let libdir = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
    let has_std = out.status.success()
        && fs::read_dir(&libdir).is_ok_and(|entries| {
            entries.flatten().any(|e| {
                let name = e.file_name();
                let name = name.to_string_lossy();
                name.starts_with("libstd-") && name.ends_with(".rlib")
            })
        });
    if !has_std {
        return Err(format!(
            "the Rust target {TARGET} is not installed (no standard library in {}): {install}",
            libdir.display()
        )
        .into());
    }
    Ok(())
}

/// Finds `wasm-opt` (`$WASM_OPT`, else on the PATH) and checks that it has
/// the passes the build needs.
fn wasm_opt() -> Result<PathBuf, CliError> {
    let path = std::env::var_os("WASM_OPT")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("wasm-opt"));
    let install = format!("install it with: npm install -g binaryen@{BINARYEN_VERSION}");
    let help = Command::new(&path).arg("--help").output().map_err(|e| {
        format!(
            "wasm-opt (binaryen) is needed to build a JavaScript bundle and `{}` cannot run ({e}): {install}",
            path.display()
        )
    })?;
    let help = String::from_utf8_lossy(&help.stdout);
    let missing: Vec<&str> = LOWERING_PASSES
        .iter()
        .copied()
        .filter(|pass| !help.contains(pass))
        .collect();
    if !missing.is_empty() {
        return Err(format!(
            "{} is too old: it lacks {} (binaryen {BINARYEN_VERSION} has them): {install}",
            path.display(),
            missing.join(", ")
        )
        .into());
    }
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_loader_is_es5_commonjs() {
        // Old Node.js versions: no ES2015+ syntax, no ES modules, no
        // `node:` specifiers or node:wasi, no BigInt.
        let code: String = LOADER
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n");
        for banned in [
            "=>",
            "`",
            "let ",
            "const ",
            "class ",
            "async ",
            "await ",
            "import ",
            "export ",
            "node:",
            "BigInt",
            "require('wasi')",
            "...",
        ] {
            assert!(!code.contains(banned), "the loader uses `{banned}`");
        }
        assert!(code.contains("require('fs')"));
    }

    #[test]
    fn word_copies_replace_the_byte_loops_and_join_the_module() {
        let wat = "(module\n (func $f\n  (call $__memory_copy\n   (i32.const 0)\n   (i32.const 8)\n   (i32.const 16)\n  )\n )\n)\n";
        let patched = with_word_copies(wat).unwrap();
        assert!(patched.contains("(call $__botzone_memory_copy\n"));
        assert!(!patched.contains("(call $__memory_copy\n"));
        assert!(patched.contains("(func $__botzone_memory_copy"));
        assert!(patched.trim_end().ends_with(')'));
        assert!(with_word_copies("").is_err());
    }
}
