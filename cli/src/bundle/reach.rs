//! Which library modules a bot reaches: the paths it names (use trees,
//! qualified paths, globs, paths inside macro calls), then, for every module
//! kept whole, the paths its own items name, until nothing new is reached.
//!
//! A module is kept whole ("full") when something names an item in it (or
//! glob-imports it); its ancestors are kept only as namespaces (their
//! `mod` declarations) unless they are reached themselves. A path that
//! stops at a module (`use botzone::games::pacman2;`) keeps it as a
//! namespace; the paths that go through the imported name then reach its
//! items.

use std::collections::{BTreeMap, HashMap, HashSet};

use proc_macro2::{Spacing, Span, TokenStream, TokenTree};
use syn::visit::{self, Visit};
use syn::{Item, UseTree};

use super::load::Library;
use crate::CliError;

/// A path some code names.
#[derive(Clone, Debug)]
pub(crate) struct Ref {
    /// Its segments (`$crate` for a macro's `$crate`).
    pub(crate) segs: Vec<String>,
    /// Whether it came from a `use` tree.
    pub(crate) is_use: bool,
    /// Whether it is a glob import (`segs` is the globbed module).
    pub(crate) glob: bool,
    /// Whether it names a macro (`path!`).
    pub(crate) is_macro: bool,
    /// Whether it starts with `::`.
    pub(crate) leading_colon: bool,
    /// Where it is.
    pub(crate) span: Span,
}

/// What a piece of code names and imports.
#[derive(Default)]
pub(crate) struct Scope {
    /// Every path of two or more segments, every use-tree path and every
    /// macro path.
    pub(crate) refs: Vec<Ref>,
    /// `use` imports: the name bound to the path it imports.
    pub(crate) bindings: HashMap<String, Vec<String>>,
    /// Glob imports (the globbed paths).
    pub(crate) globs: Vec<Vec<String>>,
    /// Names defined in the code: items (at any depth), generic parameters.
    pub(crate) names: HashSet<String>,
}

impl Scope {
    /// Collects what `items` name.
    pub(crate) fn of_items(items: &[Item]) -> Scope {
        let mut s = Scope::default();
        for item in items {
            s.visit_item(item);
        }
        s
    }

    fn push_use(
        &mut self,
        tree: &UseTree,
        prefix: &mut Vec<String>,
        leading_colon: bool,
        root: Option<Span>,
    ) {
        match tree {
            UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                let root = root.or(Some(p.ident.span()));
                self.push_use(&p.tree, prefix, leading_colon, root);
                prefix.pop();
            }
            UseTree::Name(n) => {
                let (full, name) = leaf(prefix, &n.ident);
                self.bindings.insert(name, full.clone());
                self.refs.push(Ref {
                    segs: full,
                    is_use: true,
                    glob: false,
                    is_macro: false,
                    leading_colon,
                    span: root.unwrap_or(n.ident.span()),
                });
            }
            UseTree::Rename(r) => {
                let (full, _) = leaf(prefix, &r.ident);
                self.bindings.insert(r.rename.to_string(), full.clone());
                self.refs.push(Ref {
                    segs: full,
                    is_use: true,
                    glob: false,
                    is_macro: false,
                    leading_colon,
                    span: root.unwrap_or(r.ident.span()),
                });
            }
            UseTree::Glob(g) => {
                self.globs.push(prefix.clone());
                self.refs.push(Ref {
                    segs: prefix.clone(),
                    is_use: true,
                    glob: true,
                    is_macro: false,
                    leading_colon,
                    span: root.unwrap_or(g.star_token.spans[0]),
                });
            }
            UseTree::Group(g) => {
                for t in &g.items {
                    self.push_use(t, prefix, leading_colon, root);
                }
            }
        }
    }

    /// Paths inside a macro call's tokens (`a::b::c`, `$crate::x`, `m!`).
    fn scan_tokens(&mut self, tokens: TokenStream) {
        let toks: Vec<TokenTree> = tokens.into_iter().collect();
        let mut i = 0;
        while i < toks.len() {
            match &toks[i] {
                TokenTree::Group(g) => self.scan_tokens(g.stream()),
                TokenTree::Ident(id) if !(i >= 2 && is_colon2(&toks, i - 2)) => {
                    let dollar =
                        i >= 1 && matches!(&toks[i - 1], TokenTree::Punct(p) if p.as_char() == '$');
                    let mut segs = vec![if dollar && id == "crate" {
                        "$crate".to_string()
                    } else if dollar {
                        // A macro_rules metavariable (`$name::new()`): its
                        // value is not known here.
                        format!("${id}")
                    } else {
                        id.to_string()
                    }];
                    let mut j = i + 1;
                    while j + 2 < toks.len() && is_colon2(&toks, j) {
                        match &toks[j + 2] {
                            TokenTree::Ident(next) => segs.push(next.to_string()),
                            _ => break,
                        }
                        j += 3;
                    }
                    let is_macro =
                        matches!(toks.get(j), Some(TokenTree::Punct(p)) if p.as_char() == '!');
                    if segs.len() >= 2 || is_macro {
                        self.refs.push(Ref {
                            segs,
                            is_use: false,
                            glob: false,
                            is_macro,
                            leading_colon: false,
                            span: id.span(),
                        });
                    }
                    i = j;
                    continue;
                }
                _ => {}
            }
            i += 1;
        }
    }
}

/// Whether `toks[i..]` starts with `::` followed by one more token.
fn is_colon2(toks: &[TokenTree], i: usize) -> bool {
    matches!(
        (toks.get(i), toks.get(i + 1)),
        (Some(TokenTree::Punct(a)), Some(TokenTree::Punct(b)))
            if a.as_char() == ':' && a.spacing() == Spacing::Joint && b.as_char() == ':'
    )
}

/// The path and bound name of a use-tree leaf (`self` names the prefix).
fn leaf(prefix: &[String], ident: &syn::Ident) -> (Vec<String>, String) {
    if ident == "self" {
        let name = prefix.last().cloned().unwrap_or_default();
        (prefix.to_vec(), name)
    } else {
        let mut full = prefix.to_vec();
        full.push(ident.to_string());
        (full, ident.to_string())
    }
}

impl<'ast> Visit<'ast> for Scope {
    fn visit_item(&mut self, item: &'ast Item) {
        let name = match item {
            Item::Const(i) => Some(&i.ident),
            Item::Enum(i) => Some(&i.ident),
            Item::ExternCrate(i) => Some(i.rename.as_ref().map(|r| &r.1).unwrap_or(&i.ident)),
            Item::Fn(i) => Some(&i.sig.ident),
            Item::Macro(i) => i.ident.as_ref(),
            Item::Mod(i) => Some(&i.ident),
            Item::Static(i) => Some(&i.ident),
            Item::Struct(i) => Some(&i.ident),
            Item::Trait(i) => Some(&i.ident),
            Item::TraitAlias(i) => Some(&i.ident),
            Item::Type(i) => Some(&i.ident),
            Item::Union(i) => Some(&i.ident),
            _ => None,
        };
        if let Some(n) = name {
            self.names.insert(n.to_string());
        }
        visit::visit_item(self, item);
    }

    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        self.push_use(&u.tree, &mut Vec::new(), u.leading_colon.is_some(), None);
    }

    fn visit_path(&mut self, p: &'ast syn::Path) {
        if p.segments.len() >= 2 {
            self.refs.push(Ref {
                segs: p.segments.iter().map(|s| s.ident.to_string()).collect(),
                is_use: false,
                glob: false,
                is_macro: false,
                leading_colon: p.leading_colon.is_some(),
                span: p.segments[0].ident.span(),
            });
        }
        visit::visit_path(self, p);
    }

    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        self.refs.push(Ref {
            segs: m
                .path
                .segments
                .iter()
                .map(|s| s.ident.to_string())
                .collect(),
            is_use: false,
            glob: false,
            is_macro: true,
            leading_colon: m.path.leading_colon.is_some(),
            span: m
                .path
                .segments
                .first()
                .map(|s| s.ident.span())
                .unwrap_or_else(Span::call_site),
        });
        for seg in &m.path.segments {
            self.visit_path_arguments(&seg.arguments);
        }
        self.scan_tokens(m.tokens.clone());
    }

    fn visit_attribute(&mut self, _: &'ast syn::Attribute) {}

    fn visit_generic_param(&mut self, g: &'ast syn::GenericParam) {
        match g {
            syn::GenericParam::Type(t) => {
                self.names.insert(t.ident.to_string());
            }
            syn::GenericParam::Const(c) => {
                self.names.insert(c.ident.to_string());
            }
            syn::GenericParam::Lifetime(_) => {}
        }
        visit::visit_generic_param(self, g);
    }
}

/// Where code is: the bot, or a library module.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ctx {
    /// The bot's file (one scope for all its inline modules).
    Bot,
    /// A library module.
    Lib(usize),
}

/// Where a path leads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Walked {
    /// To a library module (every segment named a module).
    Module(usize),
    /// To an item of a library module.
    Item(usize),
    /// Outside the library (std, the bot's own items, a local type...).
    Outside,
}

/// Name resolution over the library, approximate but erring on the side of
/// keeping modules.
pub(crate) struct Resolver<'a> {
    /// The library.
    pub(crate) lib: &'a Library,
    /// What each library module names.
    pub(crate) scopes: Vec<Scope>,
    /// What the bot names.
    pub(crate) bot: Scope,
    /// Every `macro_rules!` name of the library with its module.
    pub(crate) macros: BTreeMap<String, usize>,
    /// The `#[macro_export]` ones (they live at the crate root).
    pub(crate) exported_macros: BTreeMap<String, usize>,
}

impl<'a> Resolver<'a> {
    /// Collects the scopes of the library and of the bot.
    pub(crate) fn new(lib: &'a Library, bot: &syn::File) -> Resolver<'a> {
        let scopes = lib
            .modules
            .iter()
            .map(|m| Scope::of_items(&m.items))
            .collect();
        let mut macros = BTreeMap::new();
        let mut exported_macros = BTreeMap::new();
        for (idx, m) in lib.modules.iter().enumerate() {
            for item in &m.items {
                if let Item::Macro(im) = item {
                    if let Some(name) = &im.ident {
                        if im.mac.path.is_ident("macro_rules") {
                            macros.insert(name.to_string(), idx);
                            if im.attrs.iter().any(|a| a.path().is_ident("macro_export")) {
                                exported_macros.insert(name.to_string(), idx);
                            }
                        }
                    }
                }
            }
        }
        Resolver {
            lib,
            scopes,
            bot: Scope::of_items(&bot.items),
            macros,
            exported_macros,
        }
    }

    fn scope(&self, ctx: Ctx) -> &Scope {
        match ctx {
            Ctx::Bot => &self.bot,
            Ctx::Lib(m) => &self.scopes[m],
        }
    }

    /// The module a path's first segment names, if a library one.
    fn start(
        &self,
        ctx: Ctx,
        first: &str,
        leading_colon: bool,
        via: &mut Vec<usize>,
        depth: u32,
    ) -> Option<usize> {
        if leading_colon {
            return (ctx == Ctx::Bot && first == "botzone").then_some(0);
        }
        match (ctx, first) {
            (_, "$crate") => Some(0),
            (Ctx::Lib(_), "crate") => Some(0),
            (Ctx::Bot, "botzone") => Some(0),
            (Ctx::Bot, "crate" | "self" | "super") => None,
            (Ctx::Lib(m), "self") => Some(m),
            (Ctx::Lib(m), "super") => self.lib.modules[m].parent,
            (_, "std" | "core" | "alloc") => None,
            (ctx, name) => self.lookup(ctx, name, via, depth),
        }
    }

    /// The library module a plain name means in `ctx` (a child module, an
    /// imported module, or a child of a glob-imported module).
    fn lookup(&self, ctx: Ctx, name: &str, via: &mut Vec<usize>, depth: u32) -> Option<usize> {
        if depth > 24 {
            return None;
        }
        if let Ctx::Lib(m) = ctx {
            if let Some(&c) = self.lib.modules[m].children.get(name) {
                return Some(c);
            }
        }
        let scope = self.scope(ctx);
        if let Some(path) = scope.bindings.get(name) {
            if !(path.len() == 1 && path[0] == name) {
                if let Walked::Module(t) = self.walk(ctx, path, false, via, depth + 1) {
                    return Some(t);
                }
            }
        }
        for g in &scope.globs {
            if let Walked::Module(t) = self.walk(ctx, g, false, via, depth + 1) {
                if let Some(&c) = self.lib.modules[t].children.get(name) {
                    return Some(c);
                }
                if self.scopes[t].bindings.contains_key(name) {
                    if let Some(c) = self.lookup(Ctx::Lib(t), name, via, depth + 1) {
                        via.push(t);
                        return Some(c);
                    }
                }
            }
        }
        None
    }

    /// Follows `segs` from `ctx`. Modules passed through a re-export are
    /// added to `via` (their `pub use` items must be kept).
    pub(crate) fn walk(
        &self,
        ctx: Ctx,
        segs: &[String],
        leading_colon: bool,
        via: &mut Vec<usize>,
        depth: u32,
    ) -> Walked {
        let Some(first) = segs.first() else {
            return Walked::Outside;
        };
        let Some(mut cur) = self.start(ctx, first, leading_colon, via, depth) else {
            return Walked::Outside;
        };
        for s in &segs[1..] {
            match s.as_str() {
                "self" => continue,
                "super" => match self.lib.modules[cur].parent {
                    Some(p) => {
                        cur = p;
                        continue;
                    }
                    None => return Walked::Outside,
                },
                _ => {}
            }
            if let Some(&c) = self.lib.modules[cur].children.get(s.as_str()) {
                cur = c;
                continue;
            }
            if depth < 24 {
                if let Some(path) = self.scopes[cur].bindings.get(s.as_str()) {
                    if let Walked::Module(t) = self.walk(Ctx::Lib(cur), path, false, via, depth + 1)
                    {
                        via.push(cur);
                        cur = t;
                        continue;
                    }
                }
            }
            return Walked::Item(cur);
        }
        Walked::Module(cur)
    }
}

/// The modules a bundle keeps.
pub(crate) struct Reached {
    /// Modules kept whole.
    pub(crate) full: Vec<bool>,
    /// Modules emitted at all (full ones and their ancestors).
    pub(crate) emitted: Vec<bool>,
    /// The `#[macro_export]` macro names with their modules.
    pub(crate) exported_macros: BTreeMap<String, usize>,
    /// The bot's scope (for the checks).
    pub(crate) bot_scope: Scope,
    /// Each library module's scope (for the checks).
    pub(crate) scopes: Vec<Scope>,
    /// The library module each of the bot's glob imports names, if any.
    pub(crate) bot_globs: Vec<Option<usize>>,
}

/// Computes the modules the bot reaches.
pub(crate) fn compute(lib: &Library, bot: &syn::File) -> Result<Reached, CliError> {
    let r = Resolver::new(lib, bot);
    let n = lib.modules.len();
    let mut full = vec![false; n];
    let mut touched = vec![false; n];
    let mut queue: Vec<Ctx> = vec![Ctx::Bot];
    loop {
        while let Some(ctx) = queue.pop() {
            for rf in &r.scope(ctx).refs {
                let mut hits = Vec::new();
                if rf.is_macro {
                    if let Some(&m) = rf.segs.last().and_then(|l| r.macros.get(l)) {
                        hits.push(m);
                    }
                }
                let mut via = Vec::new();
                match r.walk(ctx, &rf.segs, rf.leading_colon, &mut via, 0) {
                    Walked::Module(t) if rf.glob => hits.push(t),
                    Walked::Module(t) => touched[t] = true,
                    Walked::Item(t) => hits.push(t),
                    Walked::Outside => {}
                }
                hits.extend(via);
                for h in hits {
                    if !full[h] {
                        full[h] = true;
                        queue.push(Ctx::Lib(h));
                    }
                }
            }
        }
        // An impl of a trait for a kept type in a module not kept (say
        // `impl Display for crate::json::Value` elsewhere) may be used
        // without naming its module: keep such modules too.
        let mut more = false;
        for y in 0..n {
            if full[y] || !impl_on_kept_type(&r, y, &full) {
                continue;
            }
            full[y] = true;
            queue.push(Ctx::Lib(y));
            more = true;
        }
        if !more {
            break;
        }
    }
    let mut emitted = vec![false; n];
    for i in 0..n {
        if full[i] || touched[i] {
            let mut cur = Some(i);
            while let Some(c) = cur {
                emitted[c] = true;
                cur = lib.modules[c].parent;
            }
        }
    }
    let bot_globs = r
        .bot
        .globs
        .iter()
        .map(|g| match r.walk(Ctx::Bot, g, false, &mut Vec::new(), 0) {
            Walked::Module(t) => Some(t),
            _ => None,
        })
        .collect();
    Ok(Reached {
        bot_globs,
        full,
        emitted,
        exported_macros: r.exported_macros,
        bot_scope: r.bot,
        scopes: r.scopes,
    })
}

/// Whether module `y` holds an impl usable on a type of a kept module
/// without anything of `y` being named: its self type is in a kept module,
/// its trait names no item defined in `y`, and its trait, when the
/// library's, is in a kept module (an impl of a trait the bundle leaves out
/// cannot be used: say a game's judge, `impl BotzoneGame for Pacman2`, in a
/// bot that never names the judges).
fn impl_on_kept_type(r: &Resolver<'_>, y: usize, full: &[bool]) -> bool {
    let m = &r.lib.modules[y];
    let local: HashSet<String> = r.scopes[y]
        .names
        .iter()
        .filter(|n| !m.children.contains_key(n.as_str()))
        .cloned()
        .collect();
    m.items.iter().any(|item| {
        let Item::Impl(imp) = item else {
            return false;
        };
        let syn::Type::Path(tp) = &*imp.self_ty else {
            return false;
        };
        let segs: Vec<String> = tp
            .path
            .segments
            .iter()
            .map(|s| s.ident.to_string())
            .collect();
        let mut via = Vec::new();
        let target = if segs.len() == 1 {
            match r.scopes[y].bindings.get(&segs[0]) {
                Some(path) => r.walk(Ctx::Lib(y), path, false, &mut via, 0),
                None => Walked::Outside,
            }
        } else {
            r.walk(
                Ctx::Lib(y),
                &segs,
                tp.path.leading_colon.is_some(),
                &mut via,
                0,
            )
        };
        let Walked::Item(t) = target else {
            return false;
        };
        if !full[t] || t == y {
            return false;
        }
        if let Some((_, path, _)) = &imp.trait_ {
            let segs: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
            let trait_at = if segs.len() == 1 {
                r.scopes[y]
                    .bindings
                    .get(&segs[0])
                    .map(|p| r.walk(Ctx::Lib(y), p, false, &mut Vec::new(), 0))
            } else {
                Some(r.walk(
                    Ctx::Lib(y),
                    &segs,
                    path.leading_colon.is_some(),
                    &mut Vec::new(),
                    0,
                ))
            };
            if let Some(Walked::Item(tm)) = trait_at {
                if tm != y && !full[tm] {
                    return false;
                }
            }
        }
        let trait_names_local = imp.trait_.as_ref().is_some_and(|(_, path, _)| {
            let mut idents = Vec::new();
            collect_idents(&quote::quote!(#path), &mut idents);
            idents.iter().any(|i| local.contains(i))
        });
        !trait_names_local
    })
}

fn collect_idents(tokens: &TokenStream, out: &mut Vec<String>) {
    for t in tokens.clone() {
        match t {
            TokenTree::Ident(i) => out.push(i.to_string()),
            TokenTree::Group(g) => collect_idents(&g.stream(), out),
            _ => {}
        }
    }
}
