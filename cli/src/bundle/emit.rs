//! Writing the bundle: the bot's items, then `mod botzone { ... }` with the
//! reached library modules inlined and their paths rewritten.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use proc_macro2::{Delimiter, Group, Ident, Literal, Punct, Spacing, Span, TokenStream, TokenTree};
use syn::visit_mut::{self, VisitMut};
use syn::{parse_quote, Attribute, Expr, Item, UseTree};

use super::load::{compiled_out, item_attrs_mut, Library};
use super::reach::Reached;
use super::CargoEnv;
use crate::CliError;

/// Everything the bundle is made of.
pub(crate) struct Input<'a> {
    /// The bot's name.
    pub(crate) bot_name: &'a str,
    /// The bot's main file.
    pub(crate) bot_path: &'a Path,
    /// Its text.
    pub(crate) bot_text: &'a str,
    /// Its text parsed, untouched.
    pub(crate) bot_original: &'a syn::File,
    /// The bot's main file as the header names it.
    pub(crate) shown_path: &'a Path,
    /// The bot's parsed source (file modules inlined, cfg-false items out).
    pub(crate) bot_file: syn::File,
    /// `env!` values of the bot's crate.
    pub(crate) bot_env: &'a CargoEnv,
    /// The library.
    pub(crate) lib: &'a Library,
    /// `env!` values of the library.
    pub(crate) lib_env: &'a CargoEnv,
    /// What the bot reaches.
    pub(crate) reached: &'a Reached,
}

/// The bundle's source text.
pub(crate) fn emit(input: &Input<'_>) -> Result<String, CliError> {
    let lib = input.lib;
    let reached = input.reached;
    let mut errors = Vec::new();

    // The bot.
    let mut bot = input.bot_file.clone();
    let macro_use = bot.items.iter().any(|i| {
        matches!(i, Item::ExternCrate(ec)
            if ec.ident == "botzone" && ec.attrs.iter().any(|a| a.path().is_ident("macro_use")))
    });
    bot.items = drop_extern_botzone(bot.items);
    let mut rw = Rewriter {
        lib_mode: false,
        env: input.bot_env,
        file: input.bot_path.to_path_buf(),
        depth: 0,
        errors: &mut errors,
    };
    rw.visit_file_mut(&mut bot);
    if bot
        .items
        .iter()
        .any(|i| item_name(i).as_deref() == Some("botzone"))
    {
        return Err(format!(
            "{}: the bot defines an item named `botzone`, which the bundle needs for the library",
            input.bot_path.display()
        )
        .into());
    }

    // The library.
    let mut lib_items = emit_module(lib, reached, 0, input.lib_env, &mut errors);
    // A `#[macro_export]` macro lives at the root of the crate that defines
    // it, which would be the bundle's root, not `botzone` (and would clash
    // with the bot's `use botzone::m;`). So the bundle drops
    // `#[macro_export]` and makes each such macro a path-scoped item of its
    // module (`pub(crate) use m;` after it, see `emit_module`), re-exported
    // from `botzone` itself: `botzone::m!`, `use botzone::m;` and, in the
    // library after the rewrite, `$crate::botzone::m!` keep working.
    for (name, module) in &reached.exported_macros {
        if reached.full[*module] && *module != 0 {
            let path: syn::Path =
                syn::parse_str(&format!("crate::botzone::{}::{name}", lib.path_of(*module)))?;
            lib_items.push(parse_quote!(pub(crate) use #path;));
        }
    }
    if !errors.is_empty() {
        errors.truncate(10);
        return Err(format!("cannot bundle:\n  {}", errors.join("\n  ")).into());
    }

    let uses_unsafe = contains_unsafe(&quote::quote!(#bot));
    let is_forbid_unsafe = |a: &Attribute| {
        let text = quote::quote!(#a).to_string();
        text.contains("forbid") && text.contains("unsafe_code")
    };
    // Attributes the bundle adds in front of the bot's own.
    let mut added: Vec<Attribute> = Vec::new();
    // Without it rustc would take the crate name from the file name, and
    // `x.bundle` is not a valid one.
    let crate_name = crate_name(input.bot_name);
    if !bot.attrs.iter().any(|a| a.path().is_ident("crate_name")) {
        added.push(parse_quote!(#![crate_name = #crate_name]));
    }
    if !uses_unsafe && !bot.attrs.iter().any(is_forbid_unsafe) {
        added.push(parse_quote!(#![forbid(unsafe_code)]));
    }
    let mut items = bot.items;
    if macro_use {
        // `#[macro_use] extern crate botzone;` put the library's exported
        // macros in scope by bare name.
        for (name, module) in &reached.exported_macros {
            if reached.full[*module] {
                let ident = Ident::new(name, Span::call_site());
                items.insert(
                    0,
                    parse_quote!(#[allow(unused_imports)] use botzone::#ident;),
                );
            }
        }
    }
    // The bot's source as written (comments and layout kept) when the
    // bundle changes nothing in it but cutting compiled-out items; else
    // its rewritten syntax tree, printed.
    let verbatim = verbatim_bot(input.bot_text, input.bot_original, &items);
    let bot_text = match &verbatim {
        Some(text) => {
            let mut head = String::new();
            for a in &added {
                // `#![crate_name = "x"]`, `#![forbid(unsafe_code)]`
                let tokens = quote::quote!(#a).to_string();
                head.push_str(&tokens.replace("# ! [", "#![").replace(" (", "("));
                head.push('\n');
            }
            format!("{head}{}\n", text.trim_end())
        }
        None => {
            let mut attrs = added;
            attrs.extend(
                bot.attrs
                    .iter()
                    .filter(|a| !a.path().is_ident("doc"))
                    .cloned(),
            );
            tab_indent(&prettyplease::unparse(&syn::File {
                shebang: None,
                attrs,
                items,
            }))
        }
    };
    let lib_text = if reached.emitted.iter().any(|e| *e) {
        let file = syn::File {
            shebang: None,
            attrs: Vec::new(),
            items: vec![parse_quote! {
                #[allow(dead_code, unused_imports, unused_macros)]
                mod botzone {
                    #(#lib_items)*
                }
            }],
        };
        format!(
            "\n// The botzone library: the modules the bot reaches.\n{}",
            tab_indent(&prettyplease::unparse(&file))
        )
    } else {
        String::new()
    };
    let modules: Vec<String> = (1..lib.modules.len())
        .filter(|&i| reached.emitted[i])
        .map(|i| {
            let p = lib.path_of(i);
            if reached.full[i] {
                p
            } else {
                format!("{p} (namespace)")
            }
        })
        .collect();
    let shown_path = input.shown_path;
    let version = input
        .lib_env
        .vars
        .get("CARGO_PKG_VERSION")
        .cloned()
        .unwrap_or_default();
    let header = format!(
        "// {}: one-file bundle of {} made by `botzone bundle` (botzone {}).\n// Library modules: {}.\n// Build: rustc -O --edition 2021 <this file>\n",
        input.bot_name,
        shown_path.display(),
        version,
        if modules.is_empty() {
            "none".to_string()
        } else {
            modules.join(", ")
        }
    );
    Ok(format!("{header}{bot_text}{lib_text}"))
}

/// The bot's original text minus its top-level compiled-out items, if the
/// bundle's version of the bot (`items`) is exactly that.
fn verbatim_bot(text: &str, original: &syn::File, items: &[Item]) -> Option<String> {
    use syn::spanned::Spanned;
    if original.shebang.is_some() {
        return None;
    }
    let mut cuts = Vec::new();
    let kept: Vec<&Item> = original
        .items
        .iter()
        .filter(|i| {
            let out = super::load::item_attrs(i).is_some_and(|a| compiled_out(a));
            if out {
                cuts.push(i.span().byte_range());
            }
            !out
        })
        .collect();
    if quote::quote!(#(#kept)*).to_string() != quote::quote!(#(#items)*).to_string() {
        return None;
    }
    let mut out = text.to_string();
    for range in cuts.into_iter().rev() {
        if range.end > out.len() || !out.is_char_boundary(range.start) {
            return None;
        }
        out.replace_range(range, "");
    }
    Some(out)
}

/// Re-indents prettyplease's output with a tab per level instead of four
/// spaces (about a third of a bundle's bytes), leaving the inside of
/// multi-line literals alone.
fn tab_indent(text: &str) -> String {
    let mut protected = HashSet::new();
    if let Ok(tokens) = text.parse::<TokenStream>() {
        protect_literal_lines(tokens, &mut protected);
    } else {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    for (i, line) in text.split_inclusive('\n').enumerate() {
        // Span lines are 1-based.
        if protected.contains(&(i + 1)) {
            out.push_str(line);
            continue;
        }
        let body = line.trim_start_matches(' ');
        let n = line.len() - body.len();
        out.extend(std::iter::repeat('\t').take(n / 4));
        out.extend(std::iter::repeat(' ').take(n % 4));
        out.push_str(body);
    }
    out
}

/// Adds the lines that continue a multi-line literal (all but its first).
fn protect_literal_lines(tokens: TokenStream, lines: &mut HashSet<usize>) {
    for t in tokens {
        match t {
            TokenTree::Group(g) => protect_literal_lines(g.stream(), lines),
            TokenTree::Literal(l) => {
                let (start, end) = (l.span().start().line, l.span().end().line);
                lines.extend(start + 1..=end);
            }
            _ => {}
        }
    }
}

/// A valid crate name for a bot name (`my-bot.v2` → `my_bot_v2`).
fn crate_name(bot: &str) -> String {
    let mut name: String = bot
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if !name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        name.insert(0, '_');
    }
    name
}

/// The library module `idx` as items: whole when reached, else only its
/// emitted child modules.
fn emit_module(
    lib: &Library,
    reached: &Reached,
    idx: usize,
    env: &CargoEnv,
    errors: &mut Vec<String>,
) -> Vec<Item> {
    let m = &lib.modules[idx];
    let mut out = Vec::new();
    for item in &m.items {
        if let Item::Mod(im) = item {
            let Some(&c) = m.children.get(&im.ident.to_string()) else {
                continue;
            };
            if !reached.emitted[c] {
                continue;
            }
            let mut im = im.clone();
            strip_docs(&mut im.attrs);
            let mut inner: Vec<Attribute> = lib.modules[c]
                .inner_attrs
                .iter()
                .filter(|a| !a.path().is_ident("doc"))
                .cloned()
                .collect();
            im.attrs.append(&mut inner);
            im.content = Some((
                Default::default(),
                emit_module(lib, reached, c, env, errors),
            ));
            im.semi = None;
            out.push(Item::Mod(im));
            continue;
        }
        if !reached.full[idx] {
            continue;
        }
        let mut item = item.clone();
        let mut rw = Rewriter {
            lib_mode: true,
            env,
            file: m.file.clone(),
            depth: 0,
            errors,
        };
        rw.visit_item_mut(&mut item);
        let exported_macro = match &mut item {
            Item::Macro(im) => {
                let before = im.attrs.len();
                im.attrs.retain(|a| !a.path().is_ident("macro_export"));
                im.ident.clone().filter(|_| im.attrs.len() != before)
            }
            _ => None,
        };
        out.push(item);
        if let Some(name) = exported_macro {
            out.push(parse_quote!(pub(crate) use #name;));
        }
    }
    out
}

/// Removes `extern crate botzone;` (at any depth).
fn drop_extern_botzone(items: Vec<Item>) -> Vec<Item> {
    items
        .into_iter()
        .filter(|i| !matches!(i, Item::ExternCrate(ec) if ec.ident == "botzone"))
        .map(|i| match i {
            Item::Mod(mut m) => {
                if let Some((b, inner)) = m.content.take() {
                    m.content = Some((b, drop_extern_botzone(inner)));
                }
                Item::Mod(m)
            }
            other => other,
        })
        .collect()
}

fn item_name(item: &Item) -> Option<String> {
    match item {
        Item::Mod(m) => Some(m.ident.to_string()),
        Item::Struct(s) => Some(s.ident.to_string()),
        Item::Enum(e) => Some(e.ident.to_string()),
        Item::Fn(f) => Some(f.sig.ident.to_string()),
        Item::Const(c) => Some(c.ident.to_string()),
        Item::Static(s) => Some(s.ident.to_string()),
        Item::Type(t) => Some(t.ident.to_string()),
        Item::Trait(t) => Some(t.ident.to_string()),
        _ => None,
    }
}

fn contains_unsafe(tokens: &TokenStream) -> bool {
    tokens.clone().into_iter().any(|t| match t {
        TokenTree::Ident(i) => i == "unsafe",
        TokenTree::Group(g) => contains_unsafe(&g.stream()),
        _ => false,
    })
}

/// A throwaway use tree for `mem::replace`.
fn placeholder_tree() -> UseTree {
    UseTree::Glob(syn::UseGlob {
        star_token: Default::default(),
    })
}

fn strip_docs(attrs: &mut Vec<Attribute>) {
    attrs.retain(|a| !a.path().is_ident("doc"));
}

/// Rewrites paths for their place in the bundle.
///
/// Library mode: `crate::x` → `crate::botzone::x`, docs and compiled-out
/// nested items dropped. Bot mode: `::botzone::x` and, inside the bot's own
/// modules, `botzone::x` → `crate::botzone::x`. Both: `env!("CARGO_*")`
/// and `include_str!`/`include_bytes!` become literals.
struct Rewriter<'a> {
    lib_mode: bool,
    env: &'a CargoEnv,
    file: PathBuf,
    depth: usize,
    errors: &'a mut Vec<String>,
}

fn ident(s: &str) -> Ident {
    Ident::new(s, Span::call_site())
}

fn colon2() -> [TokenTree; 2] {
    [
        TokenTree::Punct(Punct::new(':', Spacing::Joint)),
        TokenTree::Punct(Punct::new(':', Spacing::Alone)),
    ]
}

impl Rewriter<'_> {
    fn rewrite_path(&self, p: &mut syn::Path) {
        if p.segments.len() < 2 {
            return;
        }
        let first = p.segments[0].ident.to_string();
        if self.lib_mode {
            if p.leading_colon.is_none() && first == "crate" {
                p.segments.insert(1, ident("botzone").into());
            }
        } else if first == "botzone" && (p.leading_colon.is_some() || self.depth > 0) {
            p.leading_colon = None;
            p.segments.insert(0, ident("crate").into());
        }
    }

    fn rewrite_use(&mut self, u: &mut syn::ItemUse) {
        if self.lib_mode {
            if u.leading_colon.is_none() {
                self.rewrite_lib_use_tree(&mut u.tree);
            }
            return;
        }
        let root_is_botzone = matches!(&u.tree, UseTree::Path(p) if p.ident == "botzone");
        if root_is_botzone && (u.leading_colon.is_some() || self.depth > 0) {
            u.leading_colon = None;
            let tree = std::mem::replace(&mut u.tree, placeholder_tree());
            u.tree = UseTree::Path(syn::UsePath {
                ident: ident("crate"),
                colon2_token: Default::default(),
                tree: Box::new(tree),
            });
        }
    }

    fn rewrite_lib_use_tree(&self, tree: &mut UseTree) {
        match tree {
            UseTree::Path(p) if p.ident == "crate" => {
                let inner = std::mem::replace(&mut *p.tree, placeholder_tree());
                *p.tree = UseTree::Path(syn::UsePath {
                    ident: ident("botzone"),
                    colon2_token: Default::default(),
                    tree: Box::new(inner),
                });
            }
            UseTree::Group(g) => {
                for t in g.items.iter_mut() {
                    self.rewrite_lib_use_tree(t);
                }
            }
            _ => {}
        }
    }

    /// The literal an `env!`/`include_str!`/`include_bytes!` call stands
    /// for, if this is one and it can be computed.
    fn literal_for(&mut self, name: &str, args: &TokenStream, span: Span) -> Option<Literal> {
        if !matches!(name, "env" | "include_str" | "include_bytes") {
            return None;
        }
        let parsed = syn::parse::Parser::parse2(
            syn::punctuated::Punctuated::<syn::LitStr, syn::Token![,]>::parse_terminated,
            args.clone(),
        )
        .ok()?;
        let arg = parsed.first()?.value();
        let at = super::location(&self.file, span);
        match name {
            "env" => {
                if !arg.starts_with("CARGO_") {
                    return None;
                }
                match self.env.vars.get(&arg) {
                    Some(v) => Some(Literal::string(v)),
                    None => {
                        self.errors.push(format!(
                            "{at}: `env!(\"{arg}\")` is set by Cargo at build time; a bundle has no value for it"
                        ));
                        None
                    }
                }
            }
            _ => {
                let base = self.file.parent().unwrap_or(Path::new("."));
                let path = base.join(&arg);
                match std::fs::read(&path) {
                    Ok(bytes) if name == "include_bytes" => Some(Literal::byte_string(&bytes)),
                    Ok(bytes) => match String::from_utf8(bytes) {
                        Ok(s) => Some(Literal::string(&s)),
                        Err(_) => {
                            self.errors
                                .push(format!("{at}: {} is not UTF-8", path.display()));
                            None
                        }
                    },
                    Err(e) => {
                        self.errors
                            .push(format!("{at}: cannot read {}: {e}", path.display()));
                        None
                    }
                }
            }
        }
    }

    fn rewrite_tokens(&mut self, ts: TokenStream) -> TokenStream {
        let toks: Vec<TokenTree> = ts.into_iter().collect();
        let mut out: Vec<TokenTree> = Vec::with_capacity(toks.len());
        let mut i = 0;
        while i < toks.len() {
            let t = &toks[i];
            match t {
                TokenTree::Group(g) => {
                    let mut ng = Group::new(g.delimiter(), self.rewrite_tokens(g.stream()));
                    ng.set_span(g.span());
                    out.push(TokenTree::Group(ng));
                    i += 1;
                    continue;
                }
                TokenTree::Ident(id) => {
                    let name = id.to_string();
                    // env!("CARGO_..."), include_str!("..."), include_bytes!("...")
                    if let (Some(TokenTree::Punct(bang)), Some(TokenTree::Group(g))) =
                        (toks.get(i + 1), toks.get(i + 2))
                    {
                        if bang.as_char() == '!' && g.delimiter() == Delimiter::Parenthesis {
                            if let Some(lit) = self.literal_for(&name, &g.stream(), id.span()) {
                                out.push(TokenTree::Literal(lit));
                                i += 3;
                                continue;
                            }
                        }
                    }
                    let followed_by_colon2 = is_colon2(&toks, i + 1);
                    let preceded_by_colon2 = i >= 2 && is_colon2(&toks, i - 2);
                    if self.lib_mode && name == "crate" && followed_by_colon2 {
                        out.push(t.clone());
                        out.extend(colon2());
                        out.push(TokenTree::Ident(ident("botzone")));
                        i += 1;
                        continue;
                    }
                    if !self.lib_mode
                        && name == "botzone"
                        && followed_by_colon2
                        && !preceded_by_colon2
                        && self.depth > 0
                    {
                        out.push(TokenTree::Ident(ident("crate")));
                        out.extend(colon2());
                    }
                }
                _ => {}
            }
            out.push(t.clone());
            i += 1;
        }
        out.into_iter().collect()
    }
}

fn is_colon2(toks: &[TokenTree], i: usize) -> bool {
    matches!(
        (toks.get(i), toks.get(i + 1)),
        (Some(TokenTree::Punct(a)), Some(TokenTree::Punct(b)))
            if a.as_char() == ':' && a.spacing() == Spacing::Joint && b.as_char() == ':'
    )
}

impl VisitMut for Rewriter<'_> {
    fn visit_item_mut(&mut self, item: &mut Item) {
        if self.lib_mode {
            if let Some(attrs) = item_attrs_mut(item) {
                strip_docs(attrs);
            }
        }
        visit_mut::visit_item_mut(self, item);
    }

    fn visit_item_mod_mut(&mut self, m: &mut syn::ItemMod) {
        self.depth += 1;
        visit_mut::visit_item_mod_mut(self, m);
        self.depth -= 1;
    }

    fn visit_item_use_mut(&mut self, u: &mut syn::ItemUse) {
        self.rewrite_use(u);
    }

    fn visit_path_mut(&mut self, p: &mut syn::Path) {
        self.rewrite_path(p);
        visit_mut::visit_path_mut(self, p);
    }

    fn visit_macro_mut(&mut self, m: &mut syn::Macro) {
        self.rewrite_path(&mut m.path);
        let tokens = std::mem::take(&mut m.tokens);
        m.tokens = self.rewrite_tokens(tokens);
    }

    fn visit_expr_mut(&mut self, e: &mut Expr) {
        if let Expr::Macro(em) = e {
            if let Some(name) = em.mac.path.get_ident().map(|i| i.to_string()) {
                let span = em.mac.path.segments[0].ident.span();
                let tokens = em.mac.tokens.clone();
                if let Some(lit) = self.literal_for(&name, &tokens, span) {
                    let attrs = std::mem::take(&mut em.attrs);
                    *e = Expr::Lit(syn::ExprLit {
                        attrs,
                        lit: syn::Lit::new(lit),
                    });
                    return;
                }
            }
        }
        visit_mut::visit_expr_mut(self, e);
    }

    fn visit_block_mut(&mut self, b: &mut syn::Block) {
        b.stmts.retain(|s| match s {
            syn::Stmt::Item(i) => !super::load::item_attrs(i).is_some_and(|a| compiled_out(a)),
            _ => true,
        });
        visit_mut::visit_block_mut(self, b);
    }

    fn visit_item_impl_mut(&mut self, i: &mut syn::ItemImpl) {
        i.items.retain(|it| !compiled_out(impl_item_attrs(it)));
        visit_mut::visit_item_impl_mut(self, i);
    }

    fn visit_item_trait_mut(&mut self, t: &mut syn::ItemTrait) {
        t.items.retain(|it| !compiled_out(trait_item_attrs(it)));
        visit_mut::visit_item_trait_mut(self, t);
    }

    fn visit_impl_item_mut(&mut self, it: &mut syn::ImplItem) {
        if self.lib_mode {
            match it {
                syn::ImplItem::Const(c) => strip_docs(&mut c.attrs),
                syn::ImplItem::Fn(f) => strip_docs(&mut f.attrs),
                syn::ImplItem::Type(t) => strip_docs(&mut t.attrs),
                syn::ImplItem::Macro(m) => strip_docs(&mut m.attrs),
                _ => {}
            }
        }
        visit_mut::visit_impl_item_mut(self, it);
    }

    fn visit_trait_item_mut(&mut self, it: &mut syn::TraitItem) {
        if self.lib_mode {
            match it {
                syn::TraitItem::Const(c) => strip_docs(&mut c.attrs),
                syn::TraitItem::Fn(f) => strip_docs(&mut f.attrs),
                syn::TraitItem::Type(t) => strip_docs(&mut t.attrs),
                syn::TraitItem::Macro(m) => strip_docs(&mut m.attrs),
                _ => {}
            }
        }
        visit_mut::visit_trait_item_mut(self, it);
    }

    fn visit_field_mut(&mut self, f: &mut syn::Field) {
        if self.lib_mode {
            strip_docs(&mut f.attrs);
        }
        visit_mut::visit_field_mut(self, f);
    }

    fn visit_variant_mut(&mut self, v: &mut syn::Variant) {
        if self.lib_mode {
            strip_docs(&mut v.attrs);
        }
        visit_mut::visit_variant_mut(self, v);
    }

    fn visit_foreign_item_mut(&mut self, it: &mut syn::ForeignItem) {
        if self.lib_mode {
            match it {
                syn::ForeignItem::Fn(f) => strip_docs(&mut f.attrs),
                syn::ForeignItem::Static(s) => strip_docs(&mut s.attrs),
                syn::ForeignItem::Type(t) => strip_docs(&mut t.attrs),
                _ => {}
            }
        }
        visit_mut::visit_foreign_item_mut(self, it);
    }
}

fn impl_item_attrs(it: &syn::ImplItem) -> &[Attribute] {
    match it {
        syn::ImplItem::Const(c) => &c.attrs,
        syn::ImplItem::Fn(f) => &f.attrs,
        syn::ImplItem::Type(t) => &t.attrs,
        syn::ImplItem::Macro(m) => &m.attrs,
        _ => &[],
    }
}

fn trait_item_attrs(it: &syn::TraitItem) -> &[Attribute] {
    match it {
        syn::TraitItem::Const(c) => &c.attrs,
        syn::TraitItem::Fn(f) => &f.attrs,
        syn::TraitItem::Type(t) => &t.attrs,
        syn::TraitItem::Macro(m) => &m.attrs,
        _ => &[],
    }
}
