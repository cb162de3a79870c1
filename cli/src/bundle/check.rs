//! What cannot be bundled: external crates, proc macros (derives of
//! non-std traits, attribute macros), `include!`.

use std::collections::HashSet;
use std::path::Path;

use syn::visit::{self, Visit};
use syn::Item;

use super::load::Library;
use super::reach::{Reached, Scope};
use crate::CliError;

/// Path roots that are never an external crate.
const KNOWN_ROOTS: &[&str] = &[
    "std", "core", "alloc", "botzone", "crate", "self", "super", "Self", "$crate", "bool", "char",
    "str", "i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64", "u128", "usize",
    "f32", "f64",
];

/// Derives that the compiler provides.
const STD_DERIVES: &[&str] = &[
    "Clone",
    "Copy",
    "Debug",
    "Default",
    "PartialEq",
    "Eq",
    "PartialOrd",
    "Ord",
    "Hash",
];

/// Attributes the compiler knows (everything else is a proc-macro
/// attribute, or a typo).
const BUILTIN_ATTRS: &[&str] = &[
    "allow",
    "automatically_derived",
    "bench",
    "cfg",
    "cfg_attr",
    "cold",
    "collapse_debuginfo",
    "coverage",
    "crate_name",
    "crate_type",
    "debugger_visualizer",
    "default",
    "deny",
    "deprecated",
    "derive",
    "doc",
    "expect",
    "export_name",
    "feature",
    "forbid",
    "global_allocator",
    "ignore",
    "inline",
    "instruction_set",
    "link",
    "link_name",
    "link_ordinal",
    "link_section",
    "macro_export",
    "macro_use",
    "must_use",
    "naked",
    "no_builtins",
    "no_implicit_prelude",
    "no_link",
    "no_main",
    "no_mangle",
    "no_std",
    "non_exhaustive",
    "optimize",
    "panic_handler",
    "path",
    "recursion_limit",
    "repr",
    "should_panic",
    "target_feature",
    "test",
    "track_caller",
    "type_length_limit",
    "unsafe",
    "used",
    "warn",
    "windows_subsystem",
];

/// Attribute namespaces of tools (`#[rustfmt::skip]`, `#[clippy::...]`).
const TOOL_ATTRS: &[&str] = &["rustfmt", "clippy", "diagnostic", "rust_analyzer"];

/// Checks the bot for things a bundle cannot hold.
pub(crate) fn check_bot(
    file: &Path,
    bot: &syn::File,
    lib: &Library,
    reached: &Reached,
) -> Result<(), CliError> {
    let mut errors = Vec::new();
    let mut attrs = AttrCheck {
        file,
        errors: &mut errors,
    };
    attrs.visit_file(bot);
    check_roots(file, &reached.bot_scope, lib, reached, &mut errors);
    finish(errors)
}

/// Checks the library modules the bundle keeps (attributes and extern
/// crates only: the library core is std-only by design).
pub(crate) fn check_library(lib: &Library, reached: &Reached) -> Result<(), CliError> {
    let mut errors = Vec::new();
    for (i, m) in lib.modules.iter().enumerate() {
        if !reached.full[i] {
            continue;
        }
        let mut attrs = AttrCheck {
            file: &m.file,
            errors: &mut errors,
        };
        for item in &m.items {
            attrs.visit_item(item);
        }
    }
    finish(errors)
}

fn finish(mut errors: Vec<String>) -> Result<(), CliError> {
    if errors.is_empty() {
        return Ok(());
    }
    let more = errors.len().saturating_sub(10);
    errors.truncate(10);
    let mut msg = format!(
        "cannot bundle: the bot uses something that a single file for bare rustc cannot hold\n  {}",
        errors.join("\n  ")
    );
    if more > 0 {
        msg.push_str(&format!("\n  ... and {more} more"));
    }
    Err(msg.into())
}

/// Finds path roots that name an external crate.
fn check_roots(
    file: &Path,
    scope: &Scope,
    lib: &Library,
    reached: &Reached,
    errors: &mut Vec<String>,
) {
    let mut known: HashSet<String> = KNOWN_ROOTS.iter().map(|s| s.to_string()).collect();
    known.extend(scope.names.iter().cloned());
    known.extend(scope.bindings.keys().cloned());
    // Names a glob import brings in: those of a library module are known;
    // a glob of std/core/alloc brings in names we cannot list, so paths
    // outside `use` are then given the benefit of the doubt.
    let mut lenient = false;
    for (g, target) in scope.globs.iter().zip(&reached.bot_globs) {
        match *target {
            Some(t) => {
                known.extend(lib.modules[t].children.keys().cloned());
                known.extend(reached.scopes[t].names.iter().cloned());
                known.extend(reached.scopes[t].bindings.keys().cloned());
            }
            None => {
                if g.first()
                    .is_some_and(|r| matches!(r.as_str(), "std" | "core" | "alloc"))
                {
                    lenient = true;
                }
            }
        }
    }
    let mut reported = HashSet::new();
    for rf in &scope.refs {
        let Some(root) = rf.segs.first() else {
            continue;
        };
        if (rf.is_macro && rf.segs.len() == 1) || (root.starts_with('$') && root != "$crate") {
            continue;
        }
        let external = if rf.leading_colon {
            !matches!(root.as_str(), "std" | "core" | "alloc" | "botzone")
        } else if known.contains(root) {
            false
        } else if rf.is_use {
            true
        } else {
            !lenient && root.starts_with(|c: char| c.is_ascii_lowercase())
        };
        if external && reported.insert(root.clone()) {
            errors.push(format!(
                "{}: `{}` is not std, core, alloc, botzone or an item of the bot: external crates cannot be bundled (a bundle compiles with bare rustc and no crates)",
                super::location(file, rf.span),
                rf.segs.join("::")
            ));
        }
    }
}

/// Attribute checks: derives of non-std traits, attribute macros,
/// `extern crate`.
struct AttrCheck<'a> {
    file: &'a Path,
    errors: &'a mut Vec<String>,
}

impl<'ast> Visit<'ast> for AttrCheck<'_> {
    fn visit_item(&mut self, item: &'ast Item) {
        if let Item::ExternCrate(ec) = item {
            let name = ec.ident.to_string();
            if !matches!(name.as_str(), "std" | "core" | "alloc" | "botzone" | "self") {
                self.errors.push(format!(
                    "{}: `extern crate {name}`: external crates cannot be bundled",
                    super::location(self.file, ec.ident.span())
                ));
            }
        }
        visit::visit_item(self, item);
    }

    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        if m.path.is_ident("include") {
            self.errors.push(format!(
                "{}: `include!` of another file cannot be bundled (move the code into a module)",
                super::location(self.file, m.path.segments[0].ident.span())
            ));
        }
        visit::visit_macro(self, m);
    }

    fn visit_attribute(&mut self, attr: &'ast syn::Attribute) {
        let path = attr.path();
        let Some(first) = path.segments.first() else {
            return;
        };
        let root = first.ident.to_string();
        let at = super::location(self.file, first.ident.span());
        if path.segments.len() == 1 && path.is_ident("derive") {
            let Ok(list) = attr.parse_args_with(
                syn::punctuated::Punctuated::<syn::Path, syn::Token![,]>::parse_terminated,
            ) else {
                return;
            };
            for d in list {
                let last = d
                    .segments
                    .last()
                    .map(|s| s.ident.to_string())
                    .unwrap_or_default();
                let std_root = d.segments.len() == 1
                    || d.segments
                        .first()
                        .is_some_and(|s| matches!(s.ident.to_string().as_str(), "std" | "core"));
                if !(std_root && STD_DERIVES.contains(&last.as_str())) {
                    let name: Vec<String> =
                        d.segments.iter().map(|s| s.ident.to_string()).collect();
                    self.errors.push(format!(
                        "{at}: `#[derive({})]` needs a proc-macro crate, which cannot be bundled (only the compiler's derives: {})",
                        name.join("::"),
                        STD_DERIVES.join(", ")
                    ));
                }
            }
        } else if path.segments.len() == 1 {
            if !BUILTIN_ATTRS.contains(&root.as_str()) {
                self.errors.push(format!(
                    "{at}: `#[{root}]` is not a built-in attribute: proc-macro attributes cannot be bundled"
                ));
            }
        } else if !TOOL_ATTRS.contains(&root.as_str()) {
            let name: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
            self.errors.push(format!(
                "{at}: `#[{}]` is a proc-macro attribute from another crate, which cannot be bundled",
                name.join("::")
            ));
        }
    }
}
