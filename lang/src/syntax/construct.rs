//! Building AST nodes from what the inner grammar recognises.
//!
//! The grammar reads an operator expression as a flat sequence of operands, prefix and
//! infix operators (with an optional open binder, `if`, `let` or `case` at the very end);
//! [`resolve`] then builds the tree by precedence climbing with Isabelle's priorities.
//! Keeping precedence out of the LR grammar keeps the tables small and lets binders at the
//! right end of any operator work without conflicts.

// Terms and types arrive boxed from the LR stack; unboxing them here would only copy.
#![allow(clippy::boxed_local, clippy::vec_box)]

use super::ast::*;
use super::inner_lexer::normalize_name;
use super::notation::{canonical, Mixfix, MixfixForm, Notation, Notations, Table};
use super::parser::Src;
use crate::diagnostic::Diagnostic;
use crate::span::Span;

/// The deepest term or type the parser builds. Deeper input is rejected so that nothing
/// downstream (drop glue included) can overflow the stack on hostile input.
pub const MAX_DEPTH: usize = 1000;

/// One element of a flat operator sequence.
#[derive(Debug)]
pub enum Item {
    Operand(Box<Term>),
    Prefix(UnOp, Span),
    Infix(BinOp, Span),
    /// A delimiter of a user notation, in its canonical spelling.
    Delim(String, Span),
}

impl Item {
    pub fn delim(text: &str, span: Span) -> Item {
        Item::Delim(canonical(text), span)
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Assoc {
    Left,
    Right,
    Non,
}

/// Priority and associativity of an infix operator, after Isabelle/HOL. `# @` (65, right)
/// sit below `+ - ∪` (66, left), so `a + b # xs` reads as `(a + b) # xs`.
fn infix_info(op: BinOp) -> (u32, Assoc) {
    use BinOp::*;
    match op {
        Defeq => (2, Assoc::Non),
        MetaImp => (1, Assoc::Right),
        Iff | Imp => (25, Assoc::Right),
        Or => (30, Assoc::Right),
        And => (35, Assoc::Right),
        Eq => (50, Assoc::Left),
        Neq | Lt | Le | Gt | Ge | In | NotIn | SubsetEq | Subset | Dvd => (50, Assoc::Non),
        Comp => (55, Assoc::Left),
        RelComp | RelCompp => (75, Assoc::Right),
        Cons | Append => (65, Assoc::Right),
        Plus | Minus | Union => (66, Assoc::Left),
        Times | Div | Mod | Inter => (70, Assoc::Left),
        Power | FunPow | Cartesian => (80, Assoc::Right),
        Choose => (64, Assoc::Non),
        Image => (90, Assoc::Right),
        Nth | MapAdd => (100, Assoc::Left),
    }
}

fn prefix_prec(op: UnOp) -> u32 {
    match op {
        UnOp::Not => 40,
        UnOp::Neg => 80,
        // Postfix operators never enter the operator sequence (the grammar applies them to
        // their operand); this is their priority.
        _ => 999,
    }
}

/// How a prefix or postfix operator is written, for messages.
pub fn unop_text(op: UnOp) -> &'static str {
    match op {
        UnOp::Not => "¬",
        UnOp::Neg => "-",
        UnOp::Trancl => "⇧+",
        UnOp::Rtrancl => "⇧*",
        UnOp::Reflcl => "⇧=",
        UnOp::Converse => "¯",
        UnOp::Tranclp => "⇧+⇧+",
        UnOp::Rtranclp => "⇧*⇧*",
        UnOp::Reflclp => "⇧=⇧=",
        UnOp::Conversep => "¯¯",
    }
}

/// How an operator is written, for messages.
pub fn binop_text(op: BinOp) -> &'static str {
    use BinOp::*;
    match op {
        Defeq => "≡",
        MetaImp => "⟹",
        Iff => "⟷",
        Imp => "⟶",
        Or => "∨",
        And => "∧",
        Eq => "=",
        Neq => "≠",
        Lt => "<",
        Le => "≤",
        Gt => ">",
        Ge => "≥",
        In => "∈",
        NotIn => "∉",
        SubsetEq => "⊆",
        Subset => "⊂",
        Dvd => "dvd",
        Cons => "#",
        Append => "@",
        Plus => "+",
        Minus => "-",
        Union => "∪",
        Inter => "∩",
        Times => "*",
        Div => "div",
        Mod => "mod",
        Power => "^",
        Nth => "!",
        Image => "`",
        Comp => "∘",
        RelComp => "O",
        RelCompp => "OO",
        FunPow => "^^",
        Choose => "choose",
        Cartesian => "×",
        MapAdd => "++",
    }
}

/// A flat operator sequence as the grammar reads it. Most sequences are a single operand,
/// which needs no vector.
pub enum Chain {
    One(Box<Term>),
    Many(Vec<Item>),
}

impl Chain {
    pub fn from_items(items: Vec<Item>) -> Chain {
        Chain::Many(items)
    }

    /// Prefix operators followed by an operand.
    pub fn prefixed(mut prefixes: Vec<Item>, operand: Box<Term>) -> Chain {
        prefixes.push(Item::Operand(operand));
        Chain::Many(prefixes)
    }

    fn items(&mut self) -> &mut Vec<Item> {
        if let Chain::One(_) = self {
            let Chain::One(t) = std::mem::replace(self, Chain::Many(Vec::with_capacity(8))) else {
                unreachable!("just matched")
            };
            if let Chain::Many(v) = self {
                v.push(Item::Operand(t));
            }
        }
        match self {
            Chain::Many(v) => v,
            Chain::One(_) => unreachable!("converted above"),
        }
    }

    pub fn push(&mut self, op: Item, operand: Box<Term>) {
        let v = self.items();
        v.push(op);
        v.push(Item::Operand(operand));
    }

    pub fn push_prefixed(&mut self, op: Item, prefixes: Vec<Item>, operand: Box<Term>) {
        let v = self.items();
        v.push(op);
        v.extend(prefixes);
        v.push(Item::Operand(operand));
    }

    pub fn push_item(&mut self, item: Item) {
        self.items().push(item);
    }

    pub fn push_open(&mut self, op: Item, open: Vec<Item>) {
        let v = self.items();
        v.push(op);
        v.extend(open);
    }

    /// Builds the tree with Isabelle's priorities.
    pub fn resolve(self, table: &Table) -> Result<Box<Term>, Diagnostic> {
        match self {
            Chain::One(t) => Ok(t),
            Chain::Many(items) => shunting_yard(table, items),
        }
    }
}

/// An operand on the shunting-yard stack: the term, its priority (1000 for an operand
/// as read), the infix operator at its top (for messages) and the depth the operators
/// have added.
struct Operand {
    term: Box<Term>,
    level: u32,
    top: Option<(BinOp, Span)>,
    depth: usize,
}

enum Pending {
    /// An infix operator whose right operand is being read with minimum priority `rbp`.
    Infix { op: BinOp, span: Span, prec: u32, rbp: u32 },
    /// A prefix operator whose operand is being read with minimum priority `min`.
    Prefix { op: UnOp, span: Span, min: u32 },
    /// A user notation being read: the notations of the table it can still be, how many
    /// of their elements are read, the operand stack's height below its first argument,
    /// how many arguments are complete, the minimum priority of the argument being read,
    /// the priority its context asks of a last argument, and its first delimiter.
    Mixfix { cands: Vec<usize>, pos: usize, base: usize, args: usize, min: u32, context: u32, span: Span },
}

impl Pending {
    /// Operators binding looser than this minimum end the pending operand.
    fn min(&self) -> u32 {
        match self {
            Pending::Infix { rbp, .. } => *rbp,
            Pending::Prefix { min, .. } | Pending::Mixfix { min, .. } => *min,
        }
    }
}

/// Precedence resolution without recursion (so hostile input cannot exhaust the stack).
/// It reads exactly as precedence climbing would: an infix operator with priority `p`
/// continues the pending right operand of an operator whose right side needs at least
/// `p`; a prefix operator's operand takes every following operator binding at least as
/// tightly as the prefix (and as its context). Isabelle's left-operand requirements reject
/// `a < b < c` and `a = b < c`.
fn shunting_yard(table: &Table, items: Vec<Item>) -> Result<Box<Term>, Diagnostic> {
    let mut operands: Vec<Operand> = Vec::new();
    let mut pending: Vec<Pending> = Vec::new();
    // Whether the next item stands where an operand is expected.
    let mut expect_operand = true;
    for item in items {
        let was_expecting = std::mem::replace(&mut expect_operand, true);
        match item {
            Item::Operand(term) => {
                operands.push(Operand { term, level: 1000, top: None, depth: 0 });
                expect_operand = false;
            }
            // A delimiter that spells one of hol's operators (`:` of `_ ⊢ _ : _`) and that no
            // notation can take here is that operator (`x : A`), as Isabelle's grammar allows.
            Item::Delim(d, span) => match spelled_operator(&d).filter(|_| {
                !was_expecting && continued(table, &pending, &d).is_none() && table.starting_with(&d, true).is_empty()
            }) {
                Some(op) => infix(op, span, table, &mut operands, &mut pending)?,
                None => expect_operand = delimiter(table, &d, span, was_expecting, &mut operands, &mut pending)?,
            },
            Item::Prefix(op, span) => {
                let context = pending.last().map_or(0, Pending::min);
                pending.push(Pending::Prefix { op, span, min: prefix_prec(op).max(context) });
            }
            Item::Infix(op, span) => infix(op, span, table, &mut operands, &mut pending)?,
        }
    }
    while !pending.is_empty() {
        reduce(table, &mut operands, &mut pending)?;
    }
    match (operands.pop(), operands.is_empty()) {
        (Some(o), true) => Ok(o.term),
        // The grammar alternates operands and operators; report rather than panic.
        (o, _) => {
            let span = o.map_or(Span::default(), |o| o.term.span);
            Err(Diagnostic::error(span, "expected an operator").with_label("expected an operator before this term"))
        }
    }
}

/// Reads an infix operator: the pending operators binding at least as tightly end first,
/// and Isabelle's left-operand requirement is checked.
fn infix(
    op: BinOp,
    span: Span,
    table: &Table,
    operands: &mut Vec<Operand>,
    pending: &mut Vec<Pending>,
) -> Result<(), Diagnostic> {
    let (prec, assoc) = infix_info(op);
    while pending.last().is_some_and(|p| prec < p.min()) {
        reduce(table, operands, pending)?;
    }
    let left_req = if assoc == Assoc::Left { prec } else { prec + 1 };
    let Some(lhs) = operands.last() else {
        return Err(Diagnostic::error(span, "expected a term").with_label("expected a term before this operator"));
    };
    if lhs.level < left_req {
        let mut d = Diagnostic::error(span, format!("ambiguous use of `{}`: add parentheses", binop_text(op)));
        d = match lhs.top {
            Some((prev, psp)) => d
                .with_label(format!("`{}` cannot follow `{}` without parentheses", binop_text(op), binop_text(prev)))
                .with_secondary(psp, "the earlier operator"),
            None => d.with_label("expected parentheses around the left operand"),
        };
        return Err(d);
    }
    let rbp = if assoc == Assoc::Right { prec } else { prec + 1 };
    pending.push(Pending::Infix { op, span, prec, rbp });
    Ok(())
}

/// hol's operator that a user's delimiter spells, if any.
fn spelled_operator(d: &str) -> Option<BinOp> {
    use BinOp::*;
    Some(match d {
        ":" | "∈" => In,
        "#" => Cons,
        "@" => Append,
        "+" => Plus,
        "-" => Minus,
        "*" => Times,
        "<" => Lt,
        "≤" | "<=" => Le,
        "∪" => Union,
        "∩" => Inter,
        "⊆" => SubsetEq,
        "∘" => Comp,
        "^" => Power,
        "!" => Nth,
        _ => return None,
    })
}

/// The notation being read (the innermost, as a position in `pending`) that goes on with
/// the delimiter `d`.
fn continued(table: &Table, pending: &[Pending], d: &str) -> Option<usize> {
    pending.iter().rposition(|p| match p {
        Pending::Mixfix { cands, pos, .. } => cands.iter().any(|&k| continues(table.notation(k), *pos, d)),
        _ => false,
    })
}

/// Reads a user notation's delimiter `d`: the next one of a notation being read, or the
/// first of one (after an operand when `expecting` is false). Returns whether an operand
/// is expected next.
fn delimiter(
    table: &Table,
    d: &str,
    span: Span,
    expecting: bool,
    operands: &mut Vec<Operand>,
    pending: &mut Vec<Pending>,
) -> Result<bool, Diagnostic> {
    if let Some(k) = continued(table, pending, d) {
        while pending.len() > k + 1 {
            reduce(table, operands, pending)?;
        }
        let Some(Pending::Mixfix { cands, pos, base, args, .. }) = pending.last_mut() else {
            unreachable!("found above")
        };
        cands.retain(|&c| continues(table.notation(c), *pos, d));
        let n = table.notation(cands[0]);
        if let Some(p) = n.arg_at(*pos) {
            take_argument(operands, *base, args, p, span, d)?;
            *pos += 1;
        }
        *pos += 1;
    } else {
        let cands = table.starting_with(d, !expecting);
        let Some(&first) = cands.first() else {
            let what = if expecting { "a term" } else { "an operator" };
            return Err(Diagnostic::error(span, format!("`{d}` cannot stand here"))
                .with_label(format!("expected {what} here, not this notation's delimiter")));
        };
        let n = table.notation(first);
        if expecting {
            let context = pending.last().map_or(0, Pending::min);
            pending.push(Pending::Mixfix { cands, pos: 1, base: operands.len(), args: 0, min: 0, context, span });
        } else {
            while pending.last().is_some_and(|p| n.prio < p.min()) {
                reduce(table, operands, pending)?;
            }
            let base = operands.len().saturating_sub(1);
            let mut args = 0;
            take_argument(operands, base, &mut args, n.arg_at(0).unwrap_or(0), span, d)?;
            pending.push(Pending::Mixfix { cands, pos: 2, base, args, min: 0, context: 0, span });
        }
    }
    // What the notation reads next: nothing (it is complete), an argument, or a delimiter.
    let Some(Pending::Mixfix { cands, pos, min, context, .. }) = pending.last_mut() else {
        unreachable!("pushed or found above")
    };
    if let Some(&done) = cands.iter().find(|&&c| table.notation(c).elems.len() == *pos) {
        *cands = vec![done];
        complete(table, operands, pending, span.end)?;
        return Ok(false);
    }
    let n = table.notation(cands[0]);
    match n.arg_at(*pos) {
        Some(p) if *pos + 1 == n.elems.len() => {
            *min = p.max(*context);
            Ok(true)
        }
        Some(_) => {
            *min = 0;
            Ok(true)
        }
        None => Ok(false),
    }
}

/// Whether notation `n`, read up to element `pos`, goes on with the delimiter `d` (after
/// an argument, if one stands at `pos`).
fn continues(n: &Notation, pos: usize, d: &str) -> bool {
    n.delim_at(pos) == Some(d) || (n.arg_at(pos).is_some() && n.delim_at(pos + 1) == Some(d))
}

/// Counts the operand on top of the stack as the next argument of a notation, if it is
/// there and binds at least as tightly as priority `p` asks.
fn take_argument(
    operands: &[Operand],
    base: usize,
    args: &mut usize,
    p: u32,
    span: Span,
    d: &str,
) -> Result<(), Diagnostic> {
    if operands.len() != base + *args + 1 {
        return Err(Diagnostic::error(span, "expected a term").with_label(format!("expected a term before `{d}`")));
    }
    let arg = &operands[operands.len() - 1];
    if arg.level < p {
        let mut e = Diagnostic::error(span, format!("ambiguous use of `{d}`: add parentheses"))
            .with_label("expected parentheses around the term before this");
        if let Some((op, sp)) = arg.top {
            e = e.with_secondary(sp, format!("`{}` binds less tightly than this notation", binop_text(op)));
        }
        return Err(e);
    }
    *args += 1;
    Ok(())
}

/// Replaces the topmost pending notation, all read, and its arguments by the
/// application of its constant; `end` is where its last delimiter ends.
fn complete(
    table: &Table,
    operands: &mut Vec<Operand>,
    pending: &mut Vec<Pending>,
    end: u32,
) -> Result<(), Diagnostic> {
    let Some(Pending::Mixfix { cands, base, span, .. }) = pending.pop() else { unreachable!("called on a notation") };
    let n = table.notation(cands[0]);
    let args = operands.split_off(base);
    let depth = args.iter().map(|a| a.depth).max().unwrap_or(0) + 1;
    if depth > MAX_DEPTH {
        return Err(too_deep(span));
    }
    let start = args.first().map_or(span.start, |a| a.term.span.start.min(span.start));
    let end = args.last().map_or(end, |a| a.term.span.end.max(end));
    // The constant stands for the whole notation (elaboration spans an application from
    // its head to its last argument, which would leave out a closing delimiter).
    let whole = Span::new(start as usize, end as usize);
    let mut t = Box::new(Term { kind: TermKind::Name(Ident { name: n.constant.clone(), span: whole }), span: whole });
    for a in args {
        t = app(t, a.term);
    }
    t.span = whole;
    operands.push(Operand { term: t, level: n.prio, top: None, depth });
    Ok(())
}

/// A notation for a constant alone (`⟨⟩` for `Leaf`).
pub fn notation_atom(table: &Table, text: &str, span: Span) -> Result<Box<Term>, Diagnostic> {
    let d = canonical(text);
    match table.notations().iter().find(|n| n.elems.len() == 1 && n.delim_at(0) == Some(&d)) {
        Some(n) => Ok(Box::new(Term { kind: TermKind::Name(Ident { name: n.constant.clone(), span }), span })),
        None => Err(Diagnostic::error(span, format!("`{d}` cannot stand here"))
            .with_label("expected a term here, not this notation's delimiter")),
    }
}

/// `⟦t⟧` as an argument: the constant of a notation `⟦_⟧` applied to `t`.
pub fn closed_notation(
    table: &Table,
    open: &str,
    t: Box<Term>,
    close: &str,
    span: Span,
) -> Result<Box<Term>, Diagnostic> {
    let (o, c) = (canonical(open), canonical(close));
    let closed = |n: &&Notation| n.elems.len() == 3 && n.delim_at(0) == Some(&o) && n.delim_at(2) == Some(&c);
    match table.notations().iter().find(closed) {
        Some(n) => {
            let head = Box::new(Term { kind: TermKind::Name(Ident { name: n.constant.clone(), span }), span });
            let mut t = app(head, t);
            t.span = span;
            Ok(t)
        }
        None => Err(Diagnostic::error(span, format!("no notation `{o}_{c}` is in force"))
            .with_label("as an argument, only a notation of one argument between two delimiters can stand here")
            .with_help("put the notation in parentheses")),
    }
}

/// `(⊕)`: the constant of a binary user notation `_ ⊕ _`, as a function.
pub fn notation_section(table: &Table, text: &str, op: Span, l: usize, r: usize) -> Result<Box<Term>, Diagnostic> {
    let d = canonical(text);
    let binary = |n: &&Notation| n.elems.len() == 3 && n.delim_at(1) == Some(&d) && n.arg_at(0).is_some();
    match table.notations().iter().find(binary) {
        Some(n) => {
            let name = Ident { name: n.constant.clone(), span: op };
            Ok(term(TermKind::Name(name), l, r))
        }
        None => Err(Diagnostic::error(op, format!("`{d}` is not a binary operator"))
            .with_label("only a notation `_ op _` can stand alone in parentheses")),
    }
}

/// Applies the topmost pending operator to its operand(s).
fn reduce(table: &Table, operands: &mut Vec<Operand>, pending: &mut Vec<Pending>) -> Result<(), Diagnostic> {
    let missing =
        |span: Span| Diagnostic::error(span, "expected a term").with_label("expected a term after this operator");
    if let Some(Pending::Mixfix { cands, pos, base, args, span, .. }) = pending.last_mut() {
        // Only a notation that ends in an argument, now being read, is complete here.
        let last = cands.iter().copied().find(|&c| table.notation(c).elems.len() == *pos + 1);
        let Some(last) = last.filter(|&c| table.notation(c).arg_at(*pos).is_some()) else {
            let n = table.notation(cands[0]);
            let want = n.delim_at(*pos).or(n.delim_at(*pos + 1)).unwrap_or("");
            return Err(Diagnostic::error(*span, format!("expected `{want}` to complete this notation")).with_label(
                format!("the notation that starts here needs `{want}` after its `{}`", delim_text(n, *pos)),
            ));
        };
        let p = table.notation(last).arg_at(*pos).unwrap_or(0);
        let at = *span;
        if operands.len() != *base + *args + 1 {
            return Err(missing(at));
        }
        take_argument(operands, *base, args, p, at, delim_text(table.notation(last), *pos))?;
        *cands = vec![last];
        return complete(table, operands, pending, at.end);
    }
    match pending.pop() {
        Some(Pending::Prefix { op, span, .. }) => {
            let arg = operands.pop().ok_or_else(|| missing(span))?;
            let depth = arg.depth + 1;
            if depth > MAX_DEPTH {
                return Err(too_deep(span));
            }
            let whole = span.to(arg.term.span);
            let t = Box::new(Term { kind: TermKind::UnOp(op, span, arg.term), span: whole });
            operands.push(Operand { term: t, level: prefix_prec(op), top: None, depth });
        }
        Some(Pending::Infix { op, span, prec, .. }) => {
            let rhs = operands.pop().ok_or_else(|| missing(span))?;
            let lhs = operands.pop().ok_or_else(|| missing(span))?;
            let depth = lhs.depth.max(rhs.depth) + 1;
            if depth > MAX_DEPTH {
                return Err(too_deep(span));
            }
            operands.push(Operand {
                term: bin(op, span, lhs.term, rhs.term),
                level: prec,
                top: Some((op, span)),
                depth,
            });
        }
        Some(Pending::Mixfix { .. }) => unreachable!("handled above"),
        None => {}
    }
    Ok(())
}

/// The delimiter of `n` last read before element `pos`, for messages.
fn delim_text(n: &Notation, pos: usize) -> &str {
    (0..pos).rev().find_map(|i| n.delim_at(i)).unwrap_or("")
}

pub fn too_deep(span: Span) -> Diagnostic {
    Diagnostic::error(span, format!("term is nested too deeply (more than {MAX_DEPTH} levels)"))
        .with_label("nesting limit reached here")
        .with_help("split the term with definitions")
}

/// Whether one of the comma-separated attributes `[simp, code]` is exactly `code`; `code del`,
/// `code_unfold` and the like are not code equations.
pub fn has_code_attribute(tokens: &[Option<&str>]) -> bool {
    tokens.split(|t| t.is_none()).any(|attr| attr == [Some("code")])
}

/// A mixfix annotation from its parts (its span is set by the caller).
pub fn mixfix(form: MixfixForm, text: Src<'_>, arg_prios: Vec<u32>, prio: Option<u32>) -> Mixfix {
    let text_span = Span::new(text.base, text.base + text.text.len());
    Mixfix { form, text: text.text.to_string(), text_span, arg_prios, prio, span: text_span }
}

/// A constant's declaration; its notation, if it has one, is in force from here on.
pub fn const_decl(notations: &Notations, name: Ident, ty: Option<Type>, m: Option<Mixfix>) -> ConstDecl {
    if let Some(m) = &m {
        notations.declare(&name.name, m);
    }
    ConstDecl { name, ty }
}

pub fn ident(name: &str, l: usize, r: usize) -> Ident {
    Ident { name: normalize_name(name), span: Span::new(l, r) }
}

/// A name written as a string (`"value"`, as Isabelle allows wherever a name stands): its
/// text must be one identifier.
pub fn quoted_name(id: Ident) -> Result<Ident, Diagnostic> {
    let mut toks = super::inner_lexer::InnerLexer::new(&id.name, id.span.start);
    match (toks.next(), toks.next()) {
        (Some(Ok((_, super::inner_lexer::Tok::Ident(n), _))), None) if !n.contains('.') => {
            Ok(Ident { name: normalize_name(n), span: id.span })
        }
        _ => Err(Diagnostic::error(id.span, format!("`{}` is not a name", id.name))
            .with_label("expected a name in these quotes")),
    }
}

pub fn term(kind: TermKind, l: usize, r: usize) -> Box<Term> {
    Box::new(Term { kind, span: Span::new(l, r) })
}

pub fn name(n: &str, l: usize, r: usize) -> Box<Term> {
    term(TermKind::Name(ident(n, l, r)), l, r)
}

pub fn bin(op: BinOp, sp: Span, l: Box<Term>, r: Box<Term>) -> Box<Term> {
    let span = l.span.to(r.span);
    Box::new(Term { kind: TermKind::BinOp(op, sp, l, r), span })
}

/// `¬ t`, written with the operator at `op` (`∄x. P` is `¬ (∃x. P)`).
pub fn not(t: Box<Term>, op: Span) -> Box<Term> {
    let span = op.to(t.span);
    Box::new(Term { kind: TermKind::UnOp(UnOp::Not, op, t), span })
}

/// `⟦A; B⟧ ⟹ C` is `A ⟹ B ⟹ C`.
pub fn brakk(asms: Vec<Box<Term>>, sp: Span, concl: Box<Term>, start: usize) -> Box<Term> {
    let mut t = concl;
    for a in asms.into_iter().rev() {
        t = bin(BinOp::MetaImp, sp, a, t);
    }
    t.span = Span::new(start, t.span.end as usize);
    t
}

pub fn typed(t: Box<Term>, ty: Box<Type>) -> Box<Term> {
    let span = t.span.to(ty.span);
    Box::new(Term { kind: TermKind::Typed(t, *ty), span })
}

/// `t :: T` as the grammar reads it. The body of a λ extends as far right as possible and
/// (unlike the bodies of `∀`, `∃`, `if`, `let`, which Isabelle reads at priority 10) takes
/// a type constraint (priority 3): `λ_. 0::nat` is `λ_. (0::nat)`. So if `t` ends in an
/// open λ (one not closed by parentheses), the constraint goes to the innermost such λ's
/// body; otherwise it constrains `t`.
pub fn constrain(mut t: Box<Term>, ty: Box<Type>) -> Box<Term> {
    let end = t.span.end;
    // How many steps down the right spine the innermost open λ is.
    let mut target = None;
    let mut cur: &Term = &t;
    let mut steps = 0usize;
    // A node is open if its right child ends where it ends (no closing parenthesis).
    while let Some(c) = right_child(cur).filter(|c| c.span.end == end) {
        if matches!(cur.kind, TermKind::Lambda(..)) {
            target = Some(steps);
        }
        cur = c;
        steps += 1;
    }
    let Some(steps) = target else {
        return typed(t, ty);
    };
    let new_end = ty.span.end.max(end);
    match widen_right_spine(&mut t, steps, new_end) {
        Some(Term { kind: TermKind::Lambda(_, body), .. }) => {
            let placeholder = Box::new(Term { kind: TermKind::Wildcard, span: body.span });
            let b = std::mem::replace(body, placeholder);
            *body = typed(b, ty);
            t
        }
        _ => typed(t, ty),
    }
}

/// Widens the spans of the first `steps + 1` nodes of the right spine to `end` and returns
/// the last of them.
fn widen_right_spine(t: &mut Term, steps: usize, end: u32) -> Option<&mut Term> {
    let mut cur = t;
    for _ in 0..steps {
        cur.span.end = end;
        cur = right_child_mut(cur)?;
    }
    cur.span.end = end;
    Some(cur)
}

/// The subterm at the open right end of a term, if the term can have one there.
fn right_child(t: &Term) -> Option<&Term> {
    match &t.kind {
        TermKind::BinOp(_, _, _, r) => Some(r),
        TermKind::UnOp(_, _, a) => Some(a),
        TermKind::Lambda(_, b) | TermKind::Let(_, b) | TermKind::If(_, _, b) => Some(b),
        TermKind::Quant { body, .. } => Some(body),
        TermKind::Case(_, arms) => arms.last().map(|(_, b)| b),
        _ => None,
    }
}

fn right_child_mut(t: &mut Term) -> Option<&mut Term> {
    match &mut t.kind {
        TermKind::BinOp(_, _, _, r) => Some(r),
        TermKind::UnOp(_, _, a) => Some(a),
        TermKind::Lambda(_, b) | TermKind::Let(_, b) | TermKind::If(_, _, b) => Some(b),
        TermKind::Quant { body, .. } => Some(body),
        TermKind::Case(_, arms) => arms.last_mut().map(|(_, b)| b),
        _ => None,
    }
}

/// `⟨l, x, r⟩` (from byte `l` to `r`, the `⟨` ending at `open_end`) is `Node l x r`; the
/// name `Node` gets the span of the `⟨`, so a checker can tell the notation from the name
/// by its text.
pub fn tree_node(a: Box<Term>, x: Box<Term>, b: Box<Term>, l: usize, open_end: usize, r: usize) -> Box<Term> {
    let head = name("Node", l, open_end);
    let t = app(app(app(head, a), x), b);
    Box::new(Term { kind: t.kind, span: Span::new(l, r) })
}

/// Postfix operators after an operand: `r⇧*`, `r¯`. Isabelle gives them priority 999 and
/// their operand priority 1000, and an application has priority 999 with arguments of
/// priority 1000. So the operand is an atom: `f r⇧*` is neither `f (r⇧*)` nor `(f r)⇧*`
/// but an error, and so is `r¯⇧*` (`(r¯)⇧*` is fine). The grammar accepts these and this
/// reports them, saying where the parentheses go.
pub fn postfix(operand: Box<Term>, ops: Vec<(UnOp, Span)>) -> Result<Box<Term>, Diagnostic> {
    let mut ops = ops.into_iter();
    let Some((op, span)) = ops.next() else { return Ok(operand) };
    if let TermKind::App(f, x) = &operand.kind {
        // Written `f x` without parentheses: `paren` widens a parenthesised term's span past
        // its parts, and notations built from applications (`{m..n}`) overlap them.
        if operand.span.start == f.span.start && operand.span.end == x.span.end && f.span.end <= x.span.start {
            return Err(Diagnostic::error(
                span,
                format!("`{}` cannot follow an application without parentheses", unop_text(op)),
            )
            .with_label(format!("the operand of `{}` is a name or a term in brackets", unop_text(op)))
            .with_secondary(operand.span, "this application")
            .with_help(format!(
                "add parentheses around the argument, as in `f (r{o})`, or around the application, as in `(f r){o}`",
                o = unop_text(op)
            )));
        }
    }
    if let Some((next, next_span)) = ops.next() {
        return Err(Diagnostic::error(
            next_span,
            format!("`{}` cannot follow `{}` without parentheses", unop_text(next), unop_text(op)),
        )
        .with_label(format!("the operand of `{}` is a name or a term in brackets", unop_text(next)))
        .with_secondary(span, "this operator's term has a lower priority")
        .with_help(format!(
            "put the term before `{}` in parentheses, as in `(r{}){}`",
            unop_text(next),
            unop_text(op),
            unop_text(next)
        )));
    }
    let whole = operand.span.to(span);
    Ok(Box::new(Term { kind: TermKind::UnOp(op, span, operand), span: whole }))
}

/// A postfix operator's term applied to arguments: `r⇧*⇧* x y`, whose predicate forms
/// Isabelle gives priority 1000 (an argument or a function); the set forms (`r⇧*`, 999)
/// are not applied without parentheses.
pub fn postfix_applied(
    operand: Box<Term>,
    ops: Vec<(UnOp, Span)>,
    args: Vec<Box<Term>>,
) -> Result<Box<Term>, Diagnostic> {
    let (last, last_span) = *ops.last().expect("the grammar gives one operator at least");
    let predicate_form = matches!(last, UnOp::Tranclp | UnOp::Rtranclp | UnOp::Reflclp | UnOp::Conversep);
    if !predicate_form {
        let first = args.first().map_or(last_span, |a| a.span);
        return Err(Diagnostic::error(
            first,
            format!("a term with `{}` cannot be applied without parentheses", unop_text(last)),
        )
        .with_label("an argument after it")
        .with_secondary(last_span, "this operator's term is a set, with a lower priority than an application")
        .with_help(format!("put it in parentheses, as in `(r{})`", unop_text(last))));
    }
    Ok(args.into_iter().fold(postfix(operand, ops)?, app))
}

pub fn app(f: Box<Term>, a: Box<Term>) -> Box<Term> {
    let span = f.span.to(a.span);
    Box::new(Term { kind: TermKind::App(f, a), span })
}

/// A parenthesised term keeps its node, with the span widened to the parentheses.
pub fn paren(mut t: Box<Term>, l: usize, r: usize) -> Box<Term> {
    t.span = Span::new(l, r);
    t
}

/// An operator section `(+)` is `λx y. x + y`.
pub fn section(op: BinOp, op_span: Span, l: usize, r: usize) -> Box<Term> {
    let span = Span::new(l, r);
    let var = |n: &str| Term { kind: TermKind::Name(Ident { name: n.to_string(), span }), span };
    let body = Term { kind: TermKind::BinOp(op, op_span, Box::new(var("x")), Box::new(var("y"))), span };
    Box::new(Term { kind: TermKind::Lambda(vec![var("x"), var("y")], Box::new(body)), span })
}

/// `{p. body}`; `{x ∈ A. P}` is read as pattern `x` with body `x ∈ A ∧ P`.
pub fn set_compr(p: Box<Term>, dot: Span, body: Box<Term>, l: usize, r: usize) -> Result<Box<Term>, Diagnostic> {
    let span = Span::new(l, r);
    // `{e | x y. P}` (read as `e ∨ x y`) is `(λ(x, y). e) ` {(x, y). P}`.
    if let TermKind::BinOp(BinOp::Or, bar, e, vars) = &p.kind {
        let (head, args) = vars.spine();
        let names: Vec<&Term> = std::iter::once(head).chain(args).collect();
        if names.iter().all(|n| matches!(n.kind, TermKind::Name(_))) {
            let pattern = match &names[..] {
                [one] => (*one).clone(),
                _ => Term { kind: TermKind::Tuple(names.iter().map(|n| (*n).clone()).collect()), span: vars.span },
            };
            let f = term(TermKind::Lambda(vec![pattern.clone()], Box::new(clone_shallow(e)?)), l, r);
            let set = term(TermKind::SetCompr(Box::new(pattern), body), l, r);
            let mut t = bin(BinOp::Image, *bar, f, set);
            t.span = span;
            return Ok(t);
        }
    }
    match p.kind {
        TermKind::BinOp(BinOp::In, _, ref x, _) if matches!(x.kind, TermKind::Name(_) | TermKind::Tuple(_)) => {
            let pat = Box::new(clone_shallow(x)?);
            let body = bin(BinOp::And, dot, p, body);
            Ok(Box::new(Term { kind: TermKind::SetCompr(pat, body), span }))
        }
        _ => Ok(Box::new(Term { kind: TermKind::SetCompr(p, body), span })),
    }
}

/// `[x ← xs. P x]` is `[x. x ← xs, P x]`.
pub fn list_filter(
    x: Box<Term>,
    xs: Box<Term>,
    quals: Vec<Qualifier>,
    l: usize,
    r: usize,
) -> Result<Box<Term>, Diagnostic> {
    let mut qs = Vec::with_capacity(quals.len() + 1);
    qs.push(Qualifier::Generator(clone_shallow(&x)?, *xs));
    qs.extend(quals);
    Ok(term(TermKind::ListCompr(x, qs), l, r))
}

/// Clones a pattern, refusing (rather than recursing) when it is too deep.
fn clone_shallow(t: &Term) -> Result<Term, Diagnostic> {
    if term_depth(t) > MAX_DEPTH {
        return Err(too_deep(t.span));
    }
    Ok(t.clone())
}

pub fn quant(q: Quantifier, binders: Vec<Binder>, bound: Option<QuantBound>, body: Box<Term>, l: usize) -> Box<Term> {
    let span = Span::new(l, body.span.end as usize);
    Box::new(Term { kind: TermKind::Quant { q, binders, bound, body }, span })
}

/// A quantifier whose binders are patterns, as a λ's parameters. A variable (typed or not)
/// is a binder; any other pattern (`∀(a, b)∈S. P`, Isabelle's `case_prod` binder) binds a
/// variable named by the pattern's text, `(a, b)`, which no user name can capture, and the
/// body becomes `(λ(a, b). P) (a, b)`: the λ's pattern takes it apart.
pub fn quant_patterns(
    q: Quantifier,
    patterns: Vec<Term>,
    bound: Option<QuantBound>,
    body: Box<Term>,
    l: usize,
) -> Result<Box<Term>, Diagnostic> {
    let mut binders = Vec::with_capacity(patterns.len());
    let mut taken_apart = Vec::new();
    for p in patterns {
        match binder_of(&p) {
            Some(b) => binders.push(b),
            None => {
                let name = Ident { name: pattern_text(&p).ok_or_else(|| not_a_binder(p.span))?, span: p.span };
                binders.push(Binder { name: name.clone(), ty: None });
                taken_apart.push((p, name));
            }
        }
    }
    let mut body = body;
    for (p, name) in taken_apart.into_iter().rev() {
        let span = body.span;
        let lambda = Box::new(Term { kind: TermKind::Lambda(vec![p], body), span });
        // Within the body's span: what the body is shown as (`evaluated: …`) stays the body.
        let arg = Box::new(Term { kind: TermKind::Name(Ident { name: name.name, span }), span });
        body = Box::new(Term { kind: TermKind::App(lambda, arg), span });
    }
    Ok(quant(q, binders, bound, body, l))
}

/// `x` or `x :: τ` (possibly in parentheses) as a binder.
fn binder_of(p: &Term) -> Option<Binder> {
    match &p.kind {
        TermKind::Name(n) => Some(Binder { name: n.clone(), ty: None }),
        TermKind::Typed(t, ty) => match &t.kind {
            TermKind::Name(n) => Some(Binder { name: n.clone(), ty: Some(ty.clone()) }),
            _ => None,
        },
        _ => None,
    }
}

/// The text of a pattern of variables, `_`, tuples and type annotations (`(a, (b, _))`);
/// `None` for anything else.
fn pattern_text(p: &Term) -> Option<String> {
    if term_depth(p) > MAX_DEPTH {
        return None;
    }
    match &p.kind {
        TermKind::Name(n) => Some(n.name.clone()),
        TermKind::Wildcard => Some("_".into()),
        TermKind::Typed(t, _) => pattern_text(t),
        TermKind::Tuple(ts) => {
            let parts: Option<Vec<String>> = ts.iter().map(pattern_text).collect();
            Some(format!("({})", parts?.join(", ")))
        }
        _ => None,
    }
}

fn not_a_binder(span: Span) -> Diagnostic {
    Diagnostic::error(span, "expected a variable or a tuple pattern")
        .with_label("a quantifier binds variables, or a tuple of them")
}

/// `∀x>n. P` is `∀x. x > n ⟶ P`; `∃x≥n. P` is `∃x. x ≥ n ∧ P` (also for `∃!`). The AST's
/// bounds are only `∈`, `<` and `≤`, so these are built from plain nodes.
pub fn quant_cmp(
    q: Quantifier,
    x: Term,
    bound: (BinOp, Span, Box<Term>),
    body: Box<Term>,
    l: usize,
) -> Result<Box<Term>, Diagnostic> {
    let TermKind::Name(x) = x.kind else {
        return Err(Diagnostic::error(x.span, "expected a variable")
            .with_label("a bound `>` or `≥` follows a variable: `∀x>n. P`"));
    };
    let (op, op_span, n) = bound;
    let var = Box::new(Term { kind: TermKind::Name(x.clone()), span: x.span });
    let cmp = bin(op, op_span, var, n);
    let conn = if q == Quantifier::All { BinOp::Imp } else { BinOp::And };
    let body = bin(conn, op_span, cmp, body);
    Ok(quant(q, vec![Binder { name: x, ty: None }], None, body, l))
}

/// `xs[i := x, j := y]` is `list_update (list_update xs i x) j y`; every application spans
/// from `xs` to the closing bracket, the name `list_update` is the bracketed part.
///
/// Isabelle's update takes an argument of priority 1000, above application (999), so
/// `f xs[i := x]` is `f (xs[i := x])`: the update goes to the last argument of an
/// application that is not in parentheses.
pub fn list_update(xs: Box<Term>, binds: Vec<(Term, Term)>, bl: usize, r: usize) -> Box<Term> {
    to_last_argument(xs, |xs| {
        let name_span = Span::new(bl, r);
        let span = Span::new(xs.span.start as usize, r);
        binds.into_iter().fold(xs, |t, (i, x)| apply_spanning(name("list_update", bl, r), name_span, span, [*t, i, x]))
    })
}

/// `update(t)`, where `t` is the last argument of an application not in parentheses (see
/// `list_update`), else `t` itself.
fn to_last_argument(t: Box<Term>, update: impl FnOnce(Box<Term>) -> Box<Term>) -> Box<Term> {
    match t.kind {
        TermKind::App(g, a) if t.span.start == g.span.start && t.span.end == a.span.end => {
            app(g, to_last_argument(a, update))
        }
        kind => update(Box::new(Term { kind, span: t.span })),
    }
}

/// `f a b c` with every application spanning `span`, the name `f` spanning `name_span`.
fn apply_spanning(mut f: Box<Term>, name_span: Span, span: Span, args: impl IntoIterator<Item = Term>) -> Box<Term> {
    f.span = name_span;
    for a in args {
        f = Box::new(Term { kind: TermKind::App(f, Box::new(a)), span });
    }
    f
}

/// The name of a record term's constructor: its fields in order, `⦇xpos, ypos⦈`. No name a
/// user writes looks like it; a record term `⦇xpos = 1, ypos = 2⦈` names it by its fields,
/// and elaboration finds the records that have them (`record_ext_fields`), as Isabelle's
/// translation finds the record by them (in the order declared).
pub fn record_constructor(fields: &[&str]) -> String {
    format!("⦇{}⦈", fields.join(", "))
}

/// The fields of a record term's constructor name (`record_constructor`), `None` for any
/// other.
pub fn record_fields(ctor: &str) -> Option<Vec<&str>> {
    let inner = ctor.strip_prefix('⦇')?.strip_suffix('⦈')?;
    if inner.ends_with('…') {
        return None;
    }
    Some(inner.split(", ").collect())
}

/// The name of the constructor of a record's extension datatype (`record_commands`): the
/// fields the record adds, then the rest of the value, `⦇colour, …⦈`.
pub fn record_ext_constructor(fields: &[&str]) -> String {
    format!("⦇{}, …⦈", fields.join(", "))
}

/// The fields a record's extension constructor adds (`record_ext_constructor`), `None` for
/// any other constructor.
pub fn record_ext_fields(ctor: &str) -> Option<Vec<&str>> {
    let inner = ctor.strip_prefix('⦇')?.strip_suffix(", …⦈")?;
    Some(inner.split(", ").collect())
}

/// `⦇xpos = a, ypos = b⦈`: the record constructor of these fields applied to the values.
pub fn record(binds: Vec<(Ident, Term)>, l: usize, r: usize) -> Box<Term> {
    let fields: Vec<&str> = binds.iter().map(|(f, _)| f.name.as_str()).collect();
    let span = Span::new(l, r);
    apply_spanning(name(&record_constructor(&fields), l, r), span, span, binds.into_iter().map(|(_, v)| v))
}

/// `r⦇xpos := a, ypos := b⦈` is `ypos_update (λ_. b) (xpos_update (λ_. a) r)`, Isabelle's
/// translation; it binds like `xs[i := x]` (to the last argument of an application). The
/// name `xpos_update` spans the field's name.
pub fn record_update(t: Box<Term>, binds: Vec<(Ident, Term)>, r: usize) -> Box<Term> {
    to_last_argument(t, |t| {
        binds.into_iter().fold(t, |t, (field, v)| {
            let (fl, fr) = (field.span.start as usize, field.span.end as usize);
            let update = name(&format!("{}_update", field.name), fl, fr);
            let wildcard = Term { kind: TermKind::Wildcard, span: v.span };
            // Spanning to the closing `⦈`: the application's span is its parts' (elaboration).
            let constant = Term { kind: TermKind::Lambda(vec![wildcard], Box::new(v)), span: Span::new(fl, r) };
            let span = Span::new(t.span.start as usize, r);
            apply_spanning(update, field.span, span, [constant, *t])
        })
    })
}

/// `∑x∈A. t` (`sum`: true) or `∏x∈A. t` over the set `Ok(A)` is `sum (λx. t) A`
/// (`prod`); over the list `Err(xs)` (`∑x←xs. t`) it is `sum_list (map (λx. t) xs)`
/// (`prod_list`), as Isabelle's Groups_Big and Groups_List write them.
pub fn big_op(sum: bool, x: Box<Term>, over: Result<Box<Term>, Box<Term>>, body: Box<Term>, l: usize) -> Box<Term> {
    let span = Span::new(l, body.span.end as usize);
    let head = |n: &str| name(n, l, l + 1);
    let app = |f: Box<Term>, a: Box<Term>| Box::new(Term { kind: TermKind::App(f, a), span });
    let lambda = Box::new(Term { kind: TermKind::Lambda(vec![*x], body), span });
    match over {
        Ok(set) => app(app(head(if sum { "sum" } else { "prod" }), lambda), set),
        Err(list) => app(head(if sum { "sum_list" } else { "prod_list" }), app(app(head("map"), lambda), list)),
    }
}

/// `⋃x∈A. B` is `⋃ ((λx. B) ` A)`, `⋃x. B` is `⋃ (range (λx. B))`; `union` false: `⋂`.
pub fn big_set(union: bool, x: Box<Term>, over: Option<Box<Term>>, body: Box<Term>, l: usize) -> Box<Term> {
    let span = Span::new(l, body.span.end as usize);
    let head = |n: &str| name(n, l, l + 1);
    let app = |f: Box<Term>, a: Box<Term>| Box::new(Term { kind: TermKind::App(f, a), span });
    let lambda = Box::new(Term { kind: TermKind::Lambda(vec![*x], body), span });
    let sets = match over {
        Some(set) => app(app(head("image"), lambda), set),
        None => app(head("range"), lambda),
    };
    app(head(if union { "Union" } else { "Inter" }), sets)
}

/// The name of the element variable of an interval's comprehension: not a name a theory can
/// write, so it captures no variable of the bounds.
pub const INTERVAL_VAR: &str = "·x";

/// A set interval, Isabelle's `{a..b}`, `{a..<b}`, `{a<..b}`, `{a<..<b}`, `{..b}`, `{..<b}`,
/// `{a..}`, `{a<..}` (`atLeastAtMost a b` and so on), each bound with whether it is
/// strict: the comprehension `{x. a ≤ x ∧ x ≤ b}` that defines it. Over `nat` and `int`
/// the bounds make it finite where they do (`core::lower` enumerates the range); `{..b}`
/// over `int` stays infinite, as in Isabelle.
pub fn set_interval(from: Option<(Box<Term>, bool)>, to: Option<(Box<Term>, bool)>, l: usize, r: usize) -> Box<Term> {
    let span = Span::new(l, r);
    let x = || name(INTERVAL_VAR, l, l + 1);
    let cmp = |strict: bool| if strict { BinOp::Lt } else { BinOp::Le };
    let lower = from.map(|(a, strict)| bin(cmp(strict), a.span, a, x()));
    let upper = to.map(|(b, strict)| bin(cmp(strict), b.span, x(), b));
    let body = match (lower, upper) {
        (Some(lo), Some(up)) => bin(BinOp::And, span, lo, up),
        (Some(b), None) | (None, Some(b)) => b,
        (None, None) => term(TermKind::Name(ident("True", l, r)), l, r),
    };
    Box::new(Term { kind: TermKind::SetCompr(x(), body), span })
}

pub fn ty(kind: TypeKind, l: usize, r: usize) -> Box<Type> {
    Box::new(Type { kind, span: Span::new(l, r) })
}

/// `a × b`, `a + b`: the named constructor with the operator's span.
pub fn ty_op(name: &str, op: Span, a: Box<Type>, b: Box<Type>) -> Box<Type> {
    let span = a.span.to(b.span);
    Box::new(Type { kind: TypeKind::App(Ident { name: name.to_string(), span: op }, vec![*a, *b]), span })
}

/// Depth of a term (types included), computed without recursion.
pub fn term_depth(t: &Term) -> usize {
    depth(Node::Term(t))
}

/// Depth of a type, computed without recursion.
pub fn type_depth(t: &Type) -> usize {
    depth(Node::Type(t))
}

fn depth(root: Node<'_>) -> usize {
    let mut max = 0;
    let mut stack: Vec<(Node<'_>, usize)> = vec![(root, 1)];
    while let Some((n, d)) = stack.pop() {
        max = max.max(d);
        if max > MAX_DEPTH {
            return max;
        }
        match n {
            Node::Term(t) => for_each_child(t, |c| stack.push((c, d + 1))),
            Node::Type(ty) => {
                if let TypeKind::App(_, args) = &ty.kind {
                    for a in args {
                        stack.push((Node::Type(a), d + 1));
                    }
                } else if let TypeKind::Fun(a, b) = &ty.kind {
                    stack.push((Node::Type(a), d + 1));
                    stack.push((Node::Type(b), d + 1));
                }
            }
        }
    }
    max
}

#[derive(Clone, Copy)]
enum Node<'a> {
    Term(&'a Term),
    Type(&'a Type),
}

fn for_each_child<'a>(t: &'a Term, mut f: impl FnMut(Node<'a>)) {
    match &t.kind {
        TermKind::Name(_) | TermKind::Num(_) | TermKind::Wildcard => {}
        TermKind::App(a, b) => {
            f(Node::Term(a));
            f(Node::Term(b));
        }
        TermKind::Lambda(ps, b) => {
            ps.iter().for_each(|p| f(Node::Term(p)));
            f(Node::Term(b));
        }
        TermKind::Quant { binders, bound, body, .. } => {
            f(Node::Term(body));
            match bound {
                Some(QuantBound::In(b)) | Some(QuantBound::Less(b)) | Some(QuantBound::LessEq(b)) => f(Node::Term(b)),
                None => {}
            }
            for b in binders {
                if let Some(ty) = &b.ty {
                    f(Node::Type(ty));
                }
            }
        }
        TermKind::If(a, b, c) => {
            f(Node::Term(a));
            f(Node::Term(b));
            f(Node::Term(c));
        }
        TermKind::Let(bs, b) | TermKind::Case(b, bs) => {
            for (x, y) in bs {
                f(Node::Term(x));
                f(Node::Term(y));
            }
            f(Node::Term(b));
        }
        TermKind::BinOp(_, _, a, b) => {
            f(Node::Term(a));
            f(Node::Term(b));
        }
        TermKind::UnOp(_, _, a) => f(Node::Term(a)),
        TermKind::Tuple(ts) | TermKind::List(ts) | TermKind::SetLit(ts) => ts.iter().for_each(|t| f(Node::Term(t))),
        TermKind::ListCompr(h, qs) => {
            f(Node::Term(h));
            for q in qs {
                match q {
                    Qualifier::Generator(a, b) => {
                        f(Node::Term(a));
                        f(Node::Term(b));
                    }
                    Qualifier::Guard(a) => f(Node::Term(a)),
                }
            }
        }
        TermKind::Range { from, to, .. } => {
            f(Node::Term(from));
            f(Node::Term(to));
        }
        TermKind::SetCompr(a, b) => {
            f(Node::Term(a));
            f(Node::Term(b));
        }
        TermKind::Update(a, bs) => {
            f(Node::Term(a));
            for (x, y) in bs {
                f(Node::Term(x));
                f(Node::Term(y));
            }
        }
        TermKind::Typed(a, ty) => {
            f(Node::Term(a));
            f(Node::Type(ty));
        }
    }
}

/// Takes a term apart without recursion, so that dropping a (rejected) very deep term
/// cannot overflow the stack.
pub fn dismantle(t: Term) {
    let mut terms = vec![t];
    let mut types: Vec<Type> = Vec::new();
    while let Some(t) = terms.pop() {
        match t.kind {
            TermKind::Name(_) | TermKind::Num(_) | TermKind::Wildcard => {}
            TermKind::App(a, b) | TermKind::BinOp(_, _, a, b) | TermKind::SetCompr(a, b) => {
                terms.push(*a);
                terms.push(*b);
            }
            TermKind::Range { from, to, .. } => {
                terms.push(*from);
                terms.push(*to);
            }
            TermKind::Lambda(ps, b) => {
                terms.extend(ps);
                terms.push(*b);
            }
            TermKind::Quant { binders, bound, body, .. } => {
                terms.push(*body);
                match bound {
                    Some(QuantBound::In(b)) | Some(QuantBound::Less(b)) | Some(QuantBound::LessEq(b)) => terms.push(*b),
                    None => {}
                }
                types.extend(binders.into_iter().filter_map(|b| b.ty));
            }
            TermKind::If(a, b, c) => {
                terms.push(*a);
                terms.push(*b);
                terms.push(*c);
            }
            TermKind::Let(bs, b) | TermKind::Case(b, bs) | TermKind::Update(b, bs) => {
                for (x, y) in bs {
                    terms.push(x);
                    terms.push(y);
                }
                terms.push(*b);
            }
            TermKind::UnOp(_, _, a) => terms.push(*a),
            TermKind::Tuple(ts) | TermKind::List(ts) | TermKind::SetLit(ts) => terms.extend(ts),
            TermKind::ListCompr(h, qs) => {
                terms.push(*h);
                for q in qs {
                    match q {
                        Qualifier::Generator(a, b) => {
                            terms.push(a);
                            terms.push(b);
                        }
                        Qualifier::Guard(a) => terms.push(a),
                    }
                }
            }
            TermKind::Typed(a, ty) => {
                terms.push(*a);
                types.push(ty);
            }
        }
    }
    dismantle_types(types);
}

pub fn dismantle_type(t: Type) {
    dismantle_types(vec![t]);
}

fn dismantle_types(mut types: Vec<Type>) {
    while let Some(t) = types.pop() {
        match t.kind {
            TypeKind::Var(_) => {}
            TypeKind::App(_, args) => types.extend(args),
            TypeKind::Fun(a, b) => {
                types.push(*a);
                types.push(*b);
            }
        }
    }
}

/// `record 'a point = xpos :: nat  ypos :: "'a list"` as the commands it stands for, in
/// Isabelle's encoding, so that a record can be extended and the parent's selectors and
/// updates work on the extension:
/// - the extension datatype `('a, 'z) point_ext` with one constructor
///   (`record_ext_constructor`) holding the fields and, last, the rest of the value (of an
///   extension, `point.more`);
/// - `'a point` is `('a, unit) point_ext`, and `('a, 'z) point_scheme` is `('a, 'z)
///   point_ext`, the point or anything that extends it;
/// - the selectors (`xpos`, those of the datatype) and for each field Isabelle's update
///   function, `xpos_update :: (nat ⇒ nat) ⇒ ('a, 'z) point_scheme ⇒ ('a, 'z) point_scheme`.
///
/// With a parent (`record 'a cpoint = "'a point" + colour :: colour`), the extension
/// datatype holds the new fields, and `'a cpoint` is `('a, ('a, unit) cpoint_ext)
/// point_scheme`; the selectors and updates reach the new fields through the parent's
/// `point.more` and `point.more_update`, so `xpos` and `xpos_update` apply to a `cpoint`.
pub fn record_commands(
    params: Vec<TypeVar>,
    name: Ident,
    parent: Option<Type>,
    fields: Vec<(Ident, Type)>,
    span: Span,
) -> Result<Vec<CommandKind>, Diagnostic> {
    for (i, (f, _)) in fields.iter().enumerate() {
        if let Some((first, _)) = fields[..i].iter().find(|(g, _)| g.name == f.name) {
            return Err(Diagnostic::error(f.span, format!("field `{}` is declared twice", f.name))
                .with_label("second declaration")
                .with_secondary(first.span, "first declared here"));
        }
    }
    let parent = match parent {
        None => None,
        Some(Type { kind: TypeKind::App(p, args), .. }) => Some((p, args)),
        Some(t) => {
            return Err(Diagnostic::error(t.span, "the parent of a record must be a record type")
                .with_label("not a record type")
                .with_help("write the parent record's name, with its type arguments: `\"'a point\" + ...`"))
        }
    };
    let sp = name.span;
    let ident = |n: &str| Ident { name: n.to_string(), span: sp };
    let ty_app = |n: &str, args: Vec<Type>| Type { kind: TypeKind::App(ident(n), args), span: sp };
    // The type of the rest of the value: a name none of the record's parameters has.
    let more_var = (0..)
        .map(|i| if i == 0 { "'z".to_string() } else { format!("'z{i}") })
        .find(|z| params.iter().all(|p| p.name.name != *z))
        .expect("a fresh name");
    let more_ty = Type { kind: TypeKind::Var(TypeVar { name: ident(&more_var), sort: Vec::new() }), span: sp };
    let param_tys: Vec<Type> = params.iter().map(|p| Type { kind: TypeKind::Var(p.clone()), span: sp }).collect();
    let ext_name = format!("{}_ext", name.name);
    // `(params, more) point_ext`, and the record (or its scheme) around it: the extension
    // type itself, or the parent's scheme with it as the parent's rest.
    let ext_ty = |more: Type| ty_app(&ext_name, param_tys.iter().cloned().chain([more]).collect());
    let whole = |more: Type| match &parent {
        None => ext_ty(more),
        // At the parent's name: elaboration tells a parent that is no record by it.
        Some((p, args)) => Type {
            kind: TypeKind::App(
                Ident { name: format!("{}_scheme", p.name), span: p.span },
                args.iter().cloned().chain([ext_ty(more)]).collect(),
            ),
            span: p.span,
        },
    };
    let param_names: Vec<Ident> = params.iter().map(|p| p.name.clone()).collect();
    let unit = ty_app("unit", Vec::new());
    // The extension's own selectors and updates: the user's names at the root, qualified
    // by the extension's name below a parent (where the user's names go through the
    // parent's rest).
    let own = |f: &str| if parent.is_none() { f.to_string() } else { format!("{ext_name}.{f}") };
    let more_field = format!("{}.more", name.name);
    let own_more = if parent.is_none() { more_field.clone() } else { format!("{ext_name}.more") };
    // Every selector and update is declared with its type, so that a record's parameters
    // are one at every level of it (an extension's datatype holds them all, used or not).
    let fun_ty = |a: Type, b: Type| Type { kind: TypeKind::Fun(Box::new(a), Box::new(b)), span: sp };
    let update_ty = |field: &Type, rec: Type| fun_ty(fun_ty(field.clone(), field.clone()), fun_ty(rec.clone(), rec));
    let field_names: Vec<&str> = fields.iter().map(|(f, _)| f.name.as_str()).collect();
    let ctor = ident(&record_ext_constructor(&field_names));
    let mut args: Vec<CtorArg> = fields
        .iter()
        .map(|(f, t)| CtorArg { selector: Some(Ident { name: own(&f.name), span: f.span }), ty: t.clone() })
        .collect();
    args.push(CtorArg { selector: Some(ident(&own_more)), ty: more_ty.clone() });
    let mut ext_params = params.clone();
    ext_params.push(TypeVar { name: ident(&more_var), sort: Vec::new() });
    let datatype = DatatypeDecl {
        params: ext_params,
        name: ident(&ext_name),
        ctors: vec![CtorDecl { name: ctor.clone(), args, span, discriminator: None }],
        span,
    };
    let mut commands = vec![
        CommandKind::Datatype(vec![datatype]),
        CommandKind::TypeSynonym { params: param_names.clone(), name: name.clone(), rhs: whole(unit) },
        CommandKind::TypeSynonym {
            params: param_names.into_iter().chain([ident(&more_var)]).collect(),
            name: ident(&format!("{}_scheme", name.name)),
            rhs: whole(more_ty.clone()),
        },
    ];
    // Names no user writes (`%` is λ), so no constant or constructor of the theory is meant.
    let at = |n: &str, sp: Span| Term { kind: TermKind::Name(Ident { name: n.to_string(), span: sp }), span: sp };
    let apply = |f: Term, args: Vec<Term>, sp: Span| {
        args.into_iter().fold(f, |f, a| Term { kind: TermKind::App(Box::new(f), Box::new(a)), span: sp })
    };
    let equation = |lhs: Term, rhs: Term, sp: Span| Equation {
        name: None,
        term: Term { kind: TermKind::BinOp(BinOp::Eq, sp, Box::new(lhs), Box::new(rhs)), span: sp },
    };
    // The updates of the extension's fields, its rest's last.
    let vars: Vec<String> = (0..=fields.len()).map(|i| format!("%x{i}")).collect();
    let updated: Vec<(String, Span, &Type)> =
        fields.iter().map(|(f, t)| (f.name.clone(), f.span, t)).chain([("more".to_string(), sp, &more_ty)]).collect();
    for (i, (field, fsp, fty)) in updated.iter().enumerate() {
        let sp = *fsp;
        let own_field = if i == fields.len() { own_more.clone() } else { own(field) };
        let update = Ident { name: format!("{own_field}_update"), span: sp };
        let pattern = apply(at(&ctor.name, sp), vars.iter().map(|v| at(v, sp)).collect(), sp);
        let lhs = apply(at(&update.name, sp), vec![at("%f", sp), pattern], sp);
        let updated =
            |j: usize| if j == i { apply(at("%f", sp), vec![at(&vars[j], sp)], sp) } else { at(&vars[j], sp) };
        let rhs = apply(at(&ctor.name, sp), (0..vars.len()).map(updated).collect(), sp);
        commands.push(CommandKind::Fun {
            kind: FunKind::Primrec,
            consts: vec![ConstDecl { name: update, ty: Some(update_ty(fty, ext_ty(more_ty.clone()))) }],
            equations: vec![equation(lhs, rhs, sp)],
        });
    }
    // Below a parent, the user's selectors and updates: through the parent's rest.
    if let Some((p, _)) = &parent {
        let (p_more, p_more_update) = (format!("{}.more", p.name), format!("{}.more_update", p.name));
        for (i, (field, fsp, fty)) in updated.iter().enumerate() {
            let sp = *fsp;
            let (user, inner) =
                if i == fields.len() { (more_field.clone(), own_more.clone()) } else { (field.clone(), own(field)) };
            let r = at("%r", sp);
            let select = apply(at(&inner, sp), vec![apply(at(&p_more, sp), vec![r.clone()], sp)], sp);
            commands.push(CommandKind::Definition {
                decl: Some(ConstDecl {
                    name: Ident { name: user.clone(), span: sp },
                    ty: Some(fun_ty(whole(more_ty.clone()), (*fty).clone())),
                }),
                equation: equation(apply(at(&user, sp), vec![r.clone()], sp), select, sp),
            });
            let user_update = format!("{user}_update");
            let inner_update = apply(at(&format!("{inner}_update"), sp), vec![at("%f", sp)], sp);
            let rhs = apply(at(&p_more_update, sp), vec![inner_update, r.clone()], sp);
            commands.push(CommandKind::Definition {
                decl: Some(ConstDecl {
                    name: Ident { name: user_update.clone(), span: sp },
                    ty: Some(update_ty(fty, whole(more_ty.clone()))),
                }),
                equation: equation(apply(at(&user_update, sp), vec![at("%f", sp), r], sp), rhs, sp),
            });
        }
    }
    Ok(commands)
}
