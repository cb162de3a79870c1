//! `botzone bundle`: one .rs file for bare rustc, or one .js file for
//! Node.js ([`js`]: the .rs file compiled to WebAssembly, for Botzone).
//!
//! The bot's source and the library's modules are parsed with `syn`
//! ([`load`]). The library modules the bot reaches ([`reach`]: `botzone::`
//! paths in the bot, in use trees, qualified paths, globs and macro
//! arguments, then `crate::`/`super::`/`self::` paths inside each kept
//! module, until nothing new is reached; module granularity) are inlined
//! under `mod botzone { ... }` after the bot's own items ([`emit`]), so that
//! `botzone::x::y` paths in the bot keep working unchanged. Inside the
//! library `crate::` becomes `crate::botzone::`; `#[cfg(test)]` and
//! `#[cfg(feature = ..)]` items, doc comments and unreached modules are
//! dropped; `#[macro_export]` macros become path-scoped items re-exported
//! from `botzone`; `env!("CARGO_PKG_*")` and `include_str!` become
//! literals. What cannot be bundled (an external crate, a proc-macro derive
//! or attribute, `include!`) is a clear error ([`check`]). The bot's text
//! is kept as written (comments and all, minus top-level `#[cfg(test)]`
//! items) when nothing in it needs rewriting, else printed from its
//! rewritten tree; the library part is printed with `prettyplease` and
//! indented with tabs (a third of the bytes). The file names its crate
//! (`#![crate_name]`) so that `rustc -O --edition 2021 x.bundle.rs` works.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use clap::Args;

use crate::CliError;

mod check;
mod emit;
mod js;
mod load;
mod manifest;
mod reach;

/// Arguments of `botzone bundle`.
#[derive(Args)]
pub struct BundleArgs {
    /// A bot's name (a binary of this crate) or the path to its .rs file.
    bot: String,
    /// Where to write the bundle (default: `<bot>.bundle.rs`, or
    /// `<bot>.bundle.js` with `--target js`, in the current directory; `-`
    /// for standard output).
    #[arg(short, long)]
    output: Option<std::path::PathBuf>,
    /// What to write: one Rust file for judges that compile Rust (`rs`), or
    /// one JavaScript file for Node.js, the bot compiled to WebAssembly
    /// (`js`: what Botzone accepts; needs the wasm32-wasip1 target and
    /// binaryen's wasm-opt).
    #[arg(long, value_enum, default_value_t = Target::Rs)]
    target: Target,
}

/// The kind of file `botzone bundle` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Target {
    /// One .rs file that bare `rustc -O --edition 2021` compiles.
    Rs,
    /// One .js file that `node` runs (CommonJS, WebAssembly 1.0).
    Js,
}

/// Values for `env!("CARGO_...")` in one crate (the bot's or the library's).
#[derive(Clone, Debug, Default)]
pub(crate) struct CargoEnv {
    /// `CARGO_*` name to value.
    pub(crate) vars: BTreeMap<String, String>,
}

/// Runs `botzone bundle`.
pub fn run(args: BundleArgs) -> Result<(), CliError> {
    let cwd = std::env::current_dir()?;
    let bot = locate_bot(&args.bot, &cwd)?;
    let lib_root = find_library_root(&bot.file, &cwd)?;
    let extension = match args.target {
        Target::Rs => "rs",
        Target::Js => "js",
    };
    let output = args
        .output
        .clone()
        .unwrap_or_else(|| cwd.join(format!("{}.bundle.{extension}", bot.name)));
    let bundle = build(&bot, &lib_root)?;
    let modules = if bundle.modules.is_empty() {
        "none".to_string()
    } else {
        bundle.modules.join(", ")
    };
    let (text, detail) = match args.target {
        Target::Rs => (bundle.text, format!("library modules: {modules}")),
        Target::Js => {
            let js = js::build(&bundle.text, &bot.name, &bot.file)?;
            let detail = format!(
                "WebAssembly module: {} bytes ({:.1} KB); library modules: {modules}",
                js.wasm_bytes,
                js.wasm_bytes as f64 / 1024.0
            );
            (js.text, detail)
        }
    };
    if output.as_os_str() == "-" {
        use std::io::Write;
        let mut stdout = std::io::stdout().lock();
        stdout.write_all(text.as_bytes())?;
        stdout.flush()?;
    } else {
        fs::write(&output, &text).map_err(|e| format!("cannot write {}: {e}", output.display()))?;
    }
    let bytes = text.len();
    eprintln!(
        "wrote {}: {} bytes ({:.1} KB); {detail}",
        if output.as_os_str() == "-" {
            "standard output".to_string()
        } else {
            output.display().to_string()
        },
        bytes,
        bytes as f64 / 1024.0,
    );
    Ok(())
}

/// The JavaScript bundle of the bot named `bot` (as `botzone bundle BOT
/// --target js` builds it): its text.
pub(crate) fn js_text(bot: &str) -> Result<String, CliError> {
    let cwd = std::env::current_dir()?;
    let bot = locate_bot(bot, &cwd)?;
    let lib_root = find_library_root(&bot.file, &cwd)?;
    let bundle = build(&bot, &lib_root)?;
    Ok(js::build(&bundle.text, &bot.name, &bot.file)?.text)
}

/// The bot to bundle.
pub(crate) struct BotSource {
    /// The binary's name (or the file's stem).
    pub(crate) name: String,
    /// Its main source file.
    pub(crate) file: PathBuf,
    /// `env!` values for the bot's crate.
    pub(crate) env: CargoEnv,
}

/// A finished bundle.
pub(crate) struct Bundle {
    /// The source text.
    pub(crate) text: String,
    /// The library modules it holds (`games::pacman2`, ...).
    pub(crate) modules: Vec<String>,
}

/// Builds the bundle of `bot` against the library whose crate root (the
/// directory holding Cargo.toml and src/lib.rs) is `lib_root`.
pub(crate) fn build(bot: &BotSource, lib_root: &Path) -> Result<Bundle, CliError> {
    let text = fs::read_to_string(&bot.file)
        .map_err(|e| format!("cannot read {}: {e}", bot.file.display()))?;
    let bot_file =
        syn::parse_file(&text).map_err(|e| format!("{}: {}", location(&bot.file, e.span()), e))?;
    let lib = load::Library::load(&lib_root.join("src/lib.rs"))?;
    let lib_env = manifest::package_env(&lib_root.join("Cargo.toml"), "botzone", lib_root)?;
    let bot_dir = bot.file.parent().unwrap_or(Path::new(".")).to_path_buf();
    let original = bot_file.clone();
    let mut bot_file = load::strip_cfg_false_file(bot_file);
    bot_file.items = load::inline_bot_modules(bot_file.items, &bot.file, &bot_dir, &bot_dir)?;
    let bot_file = load::strip_cfg_false_file(bot_file);
    let reached = reach::compute(&lib, &bot_file)?;
    check::check_bot(&bot.file, &bot_file, &lib, &reached)?;
    check::check_library(&lib, &reached)?;
    let text = emit::emit(&emit::Input {
        bot_name: &bot.name,
        bot_path: &bot.file,
        bot_text: &text,
        bot_original: &original,
        shown_path: bot
            .file
            .strip_prefix(
                bot.file
                    .parent()
                    .and_then(manifest::find_manifest_dir)
                    .unwrap_or_else(|| lib_root.to_path_buf()),
            )
            .ok()
            .or_else(|| bot.file.file_name().map(Path::new))
            .unwrap_or(&bot.file),
        bot_file,
        bot_env: &bot.env,
        lib: &lib,
        lib_env: &lib_env,
        reached: &reached,
    })?;
    let modules = lib
        .modules
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != 0 && reached.emitted[*i])
        .map(|(i, _)| lib.path_of(i))
        .collect();
    Ok(Bundle { text, modules })
}

/// `file:line:column` of a span.
pub(crate) fn location(file: &Path, span: proc_macro2::Span) -> String {
    let start = span.start();
    format!("{}:{}:{}", file.display(), start.line, start.column + 1)
}

/// Finds the bot: an existing path, or a `[[bin]]` name of the crate around
/// the current directory (or of this crate).
fn locate_bot(arg: &str, cwd: &Path) -> Result<BotSource, CliError> {
    let as_path = cwd.join(arg);
    if arg.ends_with(".rs") || arg.contains('/') || arg.contains('\\') {
        if !as_path.is_file() {
            return Err(format!("no such file: {}", as_path.display()).into());
        }
        let file = as_path.canonicalize()?;
        let name = bot_name_from_file(&file);
        let env = match manifest::find_manifest_dir(file.parent().unwrap_or(cwd)) {
            Some(root) => bot_env(&root, &name)?,
            None => CargoEnv::default(),
        };
        return Ok(BotSource { name, file, env });
    }
    let mut roots = Vec::new();
    if let Some(root) = manifest::find_manifest_dir(cwd) {
        roots.push(root);
    }
    let built_in = built_in_library();
    if !roots.contains(&built_in) {
        roots.push(built_in);
    }
    let mut known = Vec::new();
    for root in &roots {
        let Ok(toml) = fs::read_to_string(root.join("Cargo.toml")) else {
            continue;
        };
        let bins = manifest::bins(&toml);
        if let Some(bin) = bins.iter().find(|b| b.name == arg) {
            let file = root.join(&bin.path);
            if !file.is_file() {
                return Err(format!(
                    "binary `{arg}` of {} has no source file {}",
                    root.join("Cargo.toml").display(),
                    file.display()
                )
                .into());
            }
            return Ok(BotSource {
                name: arg.to_string(),
                file: file.canonicalize()?,
                env: bot_env(root, arg)?,
            });
        }
        // Cargo's auto-discovered binaries, then this SDK's bots/ folder.
        let mut candidates = vec![
            root.join("src/bin").join(format!("{arg}.rs")),
            root.join("src/bin").join(arg).join("main.rs"),
            root.join("bots").join(format!("{arg}.rs")),
        ];
        if manifest::package_field(&toml, "name").as_deref() == Some(arg) {
            candidates.insert(0, root.join("src/main.rs"));
        }
        if let Some(fallback) = candidates.into_iter().find(|c| c.is_file()) {
            return Ok(BotSource {
                name: arg.to_string(),
                file: fallback.canonicalize()?,
                env: bot_env(root, arg)?,
            });
        }
        known.extend(bins.into_iter().map(|b| b.name));
    }
    known.retain(|n| n != "botzone");
    known.sort();
    known.dedup();
    Err(format!(
        "no bot named `{arg}` (no such [[bin]] in Cargo.toml and no bots/{arg}.rs); known binaries: {}; or give the path to a .rs file",
        if known.is_empty() { "none".to_string() } else { known.join(", ") }
    )
    .into())
}

/// The workspace root this tool was built from: the `botzone` library's
/// package (this tool's package is its `cli/` member).
fn built_in_library() -> PathBuf {
    let cli = Path::new(env!("CARGO_MANIFEST_DIR"));
    cli.parent().unwrap_or(cli).to_path_buf()
}

/// The bundle's name for a bot file: its stem, or its directory's name for
/// `.../<name>/main.rs`.
fn bot_name_from_file(file: &Path) -> String {
    let stem = file
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "bot".to_string());
    if stem == "main" {
        if let Some(dir) = file.parent().and_then(|d| d.file_name()) {
            return dir.to_string_lossy().into_owned();
        }
    }
    stem
}

/// `env!` values of a bot binary `name` in the crate at `root`.
fn bot_env(root: &Path, name: &str) -> Result<CargoEnv, CliError> {
    let mut env = manifest::package_env(&root.join("Cargo.toml"), name, root)?;
    env.vars.insert("CARGO_BIN_NAME".into(), name.to_string());
    env.vars
        .insert("CARGO_CRATE_NAME".into(), name.replace('-', "_"));
    Ok(env)
}

/// The crate root of the `botzone` library the bot is built against: the
/// crate around the bot's file when it is the `botzone` package (a bot of
/// the SDK itself); else the `botzone` package that Cargo resolves for that
/// crate (`cargo metadata`: a bot in its own crate that depends on botzone,
/// from crates.io, git or a path); else the nearest `botzone` package above
/// the bot's file or the current directory; else the crate this tool was
/// built from.
fn find_library_root(bot_file: &Path, cwd: &Path) -> Result<PathBuf, CliError> {
    let bot_dir = bot_file.parent().unwrap_or(cwd);
    // The bot's own crate decides: the library itself, or what it depends on.
    if let Some(crate_dir) = manifest::find_manifest_dir(bot_dir) {
        if let Some(root) =
            nearest_library(&crate_dir).filter(|r| crate_dir.canonicalize().is_ok_and(|c| &c == r))
        {
            return Ok(root);
        }
        if let Some(root) = resolved_library(&crate_dir) {
            return Ok(root);
        }
    }
    for start in [bot_dir, cwd] {
        if let Some(root) = nearest_library(start) {
            return Ok(root);
        }
    }
    let built_in = built_in_library();
    if built_in.join("src/lib.rs").is_file() {
        return Ok(built_in.canonicalize()?);
    }
    Err("cannot find the botzone library's sources (src/lib.rs of the `botzone` package): run this inside the botzone crate, or in a crate that depends on it".into())
}

/// The directory of the `botzone` package that Cargo resolves for the
/// crate at `crate_dir` (offline: the crate was built, so its dependencies
/// are on this machine), if it depends on one.
fn resolved_library(crate_dir: &Path) -> Option<PathBuf> {
    let out =
        std::process::Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
            .args([
                "metadata",
                "--format-version",
                "1",
                "--offline",
                "--manifest-path",
            ])
            .arg(crate_dir.join("Cargo.toml"))
            .output()
            .ok()?;
    if !out.status.success() {
        return None;
    }
    let metadata: serde_json::Value = serde_json::from_slice(&out.stdout).ok()?;
    let manifest = metadata["packages"]
        .as_array()?
        .iter()
        .find(|p| p["name"] == "botzone")?["manifest_path"]
        .as_str()?;
    let dir = Path::new(manifest).parent()?;
    dir.join("src/lib.rs").is_file().then(|| dir.to_path_buf())
}

/// The nearest `botzone` package at or above `start`.
fn nearest_library(start: &Path) -> Option<PathBuf> {
    let mut dir = Some(start);
    while let Some(d) = dir {
        let toml = d.join("Cargo.toml");
        if toml.is_file() && d.join("src/lib.rs").is_file() {
            if let Ok(text) = fs::read_to_string(&toml) {
                if manifest::package_field(&text, "name").as_deref() == Some("botzone") {
                    return d.canonicalize().ok();
                }
            }
        }
        dir = d.parent();
    }
    None
}
