//! What a name in a theory's text stands for, for an editor's hover: the innermost name of a
//! lemma's statement at a byte offset, and its type there (a constant at the instance the
//! statement uses it at, a free variable at the type inference gave it). The theory is
//! checked as `analyse` checks it, sibling imports through the same `Loader`; nothing is
//! evaluated or tested, so this is cheap enough to run on every hover.

use crate::barrier;
use crate::driver::Options;
use crate::loader::{Loader, Siblings};
use lang::types::hir::{Term, TermKind};
use lang::types::ty::TypePrinter;
use lang::{ItemKind, Span};
use std::path::Path;

/// A name at an offset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NameInfo {
    /// Where the name is written.
    pub span: Span,
    /// The name as written.
    pub name: String,
    /// Its type, in Isabelle syntax.
    pub ty: String,
}

/// The name at byte `offset` of `text` (the file at `path`), if a lemma's statement has one
/// there. `None` also when checking the text failed, which its diagnostics say.
pub fn name_at(path: &Path, text: &str, loader: &dyn Loader, options: &Options, offset: u32) -> Option<NameInfo> {
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    barrier::catch(|| {
        crate::prelude::load();
        let theory = lang::check_theory_with(text, &Siblings { dir, loader }, &options.registry.names());
        // The innermost name: the shortest span holding the offset.
        let mut best: Option<(Span, lang::types::ty::Type)> = None;
        for item in &theory.items {
            let ItemKind::Lemma { index, .. } = item.kind else { continue };
            if !(item.span.start <= offset && offset <= item.span.end) {
                continue;
            }
            let lemma = theory.lemma(index);
            for term in lemma.premises.iter().chain(std::iter::once(&lemma.conclusion)) {
                term.visit(&mut |t: &Term| {
                    let named = matches!(
                        t.kind,
                        TermKind::Local(_) | TermKind::Const(..) | TermKind::Ctor(..) | TermKind::Builtin(_)
                    );
                    let inside = t.span.start <= offset && offset <= t.span.end && t.span.start < t.span.end;
                    if named && inside && best.as_ref().is_none_or(|(b, _)| t.span.end - t.span.start < b.end - b.start)
                    {
                        best = Some((t.span, t.ty.clone()));
                    }
                });
            }
        }
        best.map(|(span, ty)| NameInfo {
            span,
            name: text.get(span.start as usize..span.end as usize).unwrap_or_default().to_owned(),
            ty: TypePrinter::default().print(&ty),
        })
    })
    .ok()
    .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::loader::FsLoader;

    #[test]
    fn a_free_variable_and_a_constant_have_their_types_at_the_statement() {
        let text = "theory T imports Main begin\nlemma \"rev xs = (xs :: nat list)\"\nend\n";
        let at = |needle: &str| {
            let offset = text.find(needle).unwrap() as u32;
            name_at(Path::new("T.thy"), text, &FsLoader::default(), &Options::default(), offset)
        };
        let xs = at("xs =").expect("xs");
        assert_eq!((xs.name.as_str(), xs.ty.as_str()), ("xs", "nat list"));
        let rev = at("rev").expect("rev");
        assert_eq!((rev.name.as_str(), rev.ty.as_str()), ("rev", "nat list ⇒ nat list"));
        assert_eq!(at("theory"), None);
    }
}
