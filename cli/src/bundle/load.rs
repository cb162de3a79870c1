//! The library's module tree, read from its source files the way rustc
//! finds them (`mod x;` → `x.rs` or `x/mod.rs`, `#[path]`), without items
//! that are compiled out in a bare `rustc` build (`#[cfg(test)]`,
//! `#[cfg(feature = "...")]`).

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use syn::punctuated::Punctuated;
use syn::{AttrStyle, Attribute, Expr, Item, Lit, Meta, Token};

use crate::CliError;

/// One module of the library.
pub(crate) struct Module {
    /// Its name (empty for the crate root).
    pub(crate) name: String,
    /// Its parent (none for the crate root).
    pub(crate) parent: Option<usize>,
    /// Its items; child modules appear as `mod x;` items without content
    /// (their items are in `children`).
    pub(crate) items: Vec<Item>,
    /// Its inner attributes (`#![...]`, `//!`).
    pub(crate) inner_attrs: Vec<Attribute>,
    /// Child modules by name.
    pub(crate) children: BTreeMap<String, usize>,
    /// The file its items come from.
    pub(crate) file: PathBuf,
}

/// The library: module 0 is the crate root.
pub(crate) struct Library {
    /// Every module, parents before children.
    pub(crate) modules: Vec<Module>,
}

impl Library {
    /// Reads the crate whose root file is `lib_rs`.
    pub(crate) fn load(lib_rs: &Path) -> Result<Library, CliError> {
        let mut lib = Library {
            modules: Vec::new(),
        };
        let dir = lib_rs.parent().unwrap_or(Path::new(".")).to_path_buf();
        lib.load_file(lib_rs, String::new(), None, &dir)?;
        Ok(lib)
    }

    /// `games::pacman2` for a module index (empty for the root).
    pub(crate) fn path_of(&self, mut idx: usize) -> String {
        let mut parts = Vec::new();
        while let Some(parent) = self.modules[idx].parent {
            parts.push(self.modules[idx].name.clone());
            idx = parent;
        }
        parts.reverse();
        parts.join("::")
    }

    /// Loads a module from `file` (whose `mod x;` children live in
    /// `child_dir`), returning its index.
    fn load_file(
        &mut self,
        file: &Path,
        name: String,
        parent: Option<usize>,
        child_dir: &Path,
    ) -> Result<usize, CliError> {
        let text = fs::read_to_string(file)
            .map_err(|e| format!("cannot read library module {}: {e}", file.display()))?;
        let parsed = syn::parse_file(&text)
            .map_err(|e| format!("{}: {e}", super::location(file, e.span())))?;
        let idx = self.modules.len();
        self.modules.push(Module {
            name,
            parent,
            items: Vec::new(),
            inner_attrs: parsed.attrs,
            children: BTreeMap::new(),
            file: file.to_path_buf(),
        });
        let file_dir = file.parent().unwrap_or(Path::new(".")).to_path_buf();
        let items = self.load_items(parsed.items, idx, file, &file_dir, child_dir)?;
        self.modules[idx].items = items;
        Ok(idx)
    }

    /// Processes the items of module `idx`: drops compiled-out items and
    /// loads child modules. `path_base` is where `#[path]` is relative to,
    /// `child_dir` where `mod x;` looks.
    fn load_items(
        &mut self,
        items: Vec<Item>,
        idx: usize,
        file: &Path,
        path_base: &Path,
        child_dir: &Path,
    ) -> Result<Vec<Item>, CliError> {
        let mut out = Vec::new();
        for item in items {
            if item_attrs(&item).is_some_and(|a| compiled_out(a)) {
                continue;
            }
            let Item::Mod(mut m) = item else {
                out.push(item);
                continue;
            };
            let name = m.ident.to_string();
            if self.modules[idx].children.contains_key(&name) {
                return Err(format!(
                    "{}: module `{name}` is declared twice (modules chosen by cfg are not supported)",
                    super::location(file, m.ident.span())
                )
                .into());
            }
            let path_attr = path_attribute(&m.attrs);
            m.attrs.retain(|a| !a.path().is_ident("path"));
            let child = match m.content.take() {
                Some((_, inner)) => {
                    let (inner_attrs, outer): (Vec<_>, Vec<_>) = m
                        .attrs
                        .drain(..)
                        .partition(|a| matches!(a.style, AttrStyle::Inner(_)));
                    m.attrs = outer;
                    let c = self.modules.len();
                    self.modules.push(Module {
                        name: name.clone(),
                        parent: Some(idx),
                        items: Vec::new(),
                        inner_attrs,
                        children: BTreeMap::new(),
                        file: file.to_path_buf(),
                    });
                    let dir = match &path_attr {
                        Some(p) => path_base.join(p),
                        None => child_dir.join(&name),
                    };
                    let items = self.load_items(inner, c, file, &dir, &dir)?;
                    self.modules[c].items = items;
                    c
                }
                None => {
                    let (child_file, dir) = match &path_attr {
                        Some(p) => {
                            let f = path_base.join(p);
                            let d = f.parent().unwrap_or(Path::new(".")).to_path_buf();
                            (f, d)
                        }
                        None => {
                            let flat = child_dir.join(format!("{name}.rs"));
                            let nested = child_dir.join(&name).join("mod.rs");
                            let f = if flat.is_file() { flat } else { nested };
                            (f, child_dir.join(&name))
                        }
                    };
                    self.load_file(&child_file, name.clone(), Some(idx), &dir)?
                }
            };
            m.semi = Some(Default::default());
            self.modules[idx].children.insert(name, child);
            out.push(Item::Mod(m));
        }
        Ok(out)
    }
}

/// The string of a `#[path = "..."]` attribute.
fn path_attribute(attrs: &[Attribute]) -> Option<String> {
    attrs.iter().find_map(|a| match &a.meta {
        Meta::NameValue(nv) if nv.path.is_ident("path") => match &nv.value {
            Expr::Lit(l) => match &l.lit {
                Lit::Str(s) => Some(s.value()),
                _ => None,
            },
            _ => None,
        },
        _ => None,
    })
}

/// The attributes of an item (none for verbatim tokens).
pub(crate) fn item_attrs(item: &Item) -> Option<&Vec<Attribute>> {
    Some(match item {
        Item::Const(i) => &i.attrs,
        Item::Enum(i) => &i.attrs,
        Item::ExternCrate(i) => &i.attrs,
        Item::Fn(i) => &i.attrs,
        Item::ForeignMod(i) => &i.attrs,
        Item::Impl(i) => &i.attrs,
        Item::Macro(i) => &i.attrs,
        Item::Mod(i) => &i.attrs,
        Item::Static(i) => &i.attrs,
        Item::Struct(i) => &i.attrs,
        Item::Trait(i) => &i.attrs,
        Item::TraitAlias(i) => &i.attrs,
        Item::Type(i) => &i.attrs,
        Item::Union(i) => &i.attrs,
        Item::Use(i) => &i.attrs,
        _ => return None,
    })
}

/// The attributes of an item, mutably.
pub(crate) fn item_attrs_mut(item: &mut Item) -> Option<&mut Vec<Attribute>> {
    Some(match item {
        Item::Const(i) => &mut i.attrs,
        Item::Enum(i) => &mut i.attrs,
        Item::ExternCrate(i) => &mut i.attrs,
        Item::Fn(i) => &mut i.attrs,
        Item::ForeignMod(i) => &mut i.attrs,
        Item::Impl(i) => &mut i.attrs,
        Item::Macro(i) => &mut i.attrs,
        Item::Mod(i) => &mut i.attrs,
        Item::Static(i) => &mut i.attrs,
        Item::Struct(i) => &mut i.attrs,
        Item::Trait(i) => &mut i.attrs,
        Item::TraitAlias(i) => &mut i.attrs,
        Item::Type(i) => &mut i.attrs,
        Item::Union(i) => &mut i.attrs,
        Item::Use(i) => &mut i.attrs,
        _ => return None,
    })
}

/// Whether some `#[cfg(...)]` among `attrs` is false in a bare `rustc`
/// build of the bundle (no `--test`, no features).
pub(crate) fn compiled_out(attrs: &[Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg")
            && a.parse_args::<Meta>().ok().and_then(|m| cfg_value(&m)) == Some(false)
    })
}

/// The value of a cfg predicate when known: `test` and `feature = ".."`
/// are false; anything else is unknown (left to rustc).
fn cfg_value(meta: &Meta) -> Option<bool> {
    match meta {
        Meta::Path(p) if p.is_ident("test") => Some(false),
        Meta::NameValue(nv) if nv.path.is_ident("feature") => Some(false),
        Meta::List(list) => {
            let args = list
                .parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated)
                .ok()?;
            let values: Vec<Option<bool>> = args.iter().map(cfg_value).collect();
            if list.path.is_ident("not") && values.len() == 1 {
                values[0].map(|v| !v)
            } else if list.path.is_ident("all") {
                if values.contains(&Some(false)) {
                    Some(false)
                } else if values.iter().all(|v| *v == Some(true)) {
                    Some(true)
                } else {
                    None
                }
            } else if list.path.is_ident("any") {
                if values.contains(&Some(true)) {
                    Some(true)
                } else if values.iter().all(|v| *v == Some(false)) {
                    Some(false)
                } else {
                    None
                }
            } else {
                None
            }
        }
        _ => None,
    }
}

/// Drops compiled-out items (at any depth of inline modules) from the bot.
pub(crate) fn strip_cfg_false_file(mut file: syn::File) -> syn::File {
    file.items = strip_cfg_false_items(file.items);
    file
}

fn strip_cfg_false_items(items: Vec<Item>) -> Vec<Item> {
    items
        .into_iter()
        .filter(|i| !item_attrs(i).is_some_and(|a| compiled_out(a)))
        .map(|i| match i {
            Item::Mod(mut m) => {
                if let Some((brace, inner)) = m.content.take() {
                    m.content = Some((brace, strip_cfg_false_items(inner)));
                }
                Item::Mod(m)
            }
            other => other,
        })
        .collect()
}

/// Inlines the bot's own file modules (`mod helper;` next to a bot's main
/// file), recursively, so the bundle is one file. `child_dir` is where the
/// crate root's `mod x;` look (the main file's directory).
pub(crate) fn inline_bot_modules(
    items: Vec<Item>,
    file: &Path,
    path_base: &Path,
    child_dir: &Path,
) -> Result<Vec<Item>, CliError> {
    let mut out = Vec::new();
    for item in items {
        let Item::Mod(mut m) = item else {
            out.push(item);
            continue;
        };
        let name = m.ident.to_string();
        let path_attr = path_attribute(&m.attrs);
        m.attrs.retain(|a| !a.path().is_ident("path"));
        match m.content.take() {
            Some((brace, inner)) => {
                let dir = match &path_attr {
                    Some(p) => path_base.join(p),
                    None => child_dir.join(&name),
                };
                let inner = inline_bot_modules(inner, file, &dir, &dir)?;
                m.content = Some((brace, inner));
            }
            None => {
                let (child_file, dir) = match &path_attr {
                    Some(p) => {
                        let f = path_base.join(p);
                        let d = f.parent().unwrap_or(Path::new(".")).to_path_buf();
                        (f, d)
                    }
                    None => {
                        let flat = child_dir.join(format!("{name}.rs"));
                        let nested = child_dir.join(&name).join("mod.rs");
                        let f = if flat.is_file() { flat } else { nested };
                        (f, child_dir.join(&name))
                    }
                };
                let text = fs::read_to_string(&child_file).map_err(|e| {
                    format!(
                        "{}: cannot read module file {}: {e}",
                        super::location(file, m.ident.span()),
                        child_file.display()
                    )
                })?;
                let parsed = syn::parse_file(&text)
                    .map_err(|e| format!("{}: {e}", super::location(&child_file, e.span())))?;
                let file_dir = child_file.parent().unwrap_or(Path::new(".")).to_path_buf();
                let inner = inline_bot_modules(parsed.items, &child_file, &file_dir, &dir)?;
                m.attrs.extend(
                    parsed
                        .attrs
                        .into_iter()
                        .filter(|a| matches!(a.style, AttrStyle::Inner(_))),
                );
                m.content = Some((Default::default(), inner));
                m.semi = None;
            }
        }
        out.push(Item::Mod(m));
    }
    Ok(out)
}
