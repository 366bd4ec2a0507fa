//! The surface syntax tree of a theory file, as written: outer commands and the inner
//! terms and types inside their quotes. Names are not resolved here; every node carries
//! the file-absolute byte span it was read from.

use crate::span::Span;

/// A name as written, with its span. Subscripts (`s\<^sub>1`) are part of the name text,
/// normalised to the `\<^sub>` spelling.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

/// `theory Name imports A B begin ... end`.
#[derive(Clone, Debug, PartialEq)]
pub struct Theory {
    pub name: Ident,
    pub imports: Vec<Ident>,
    pub commands: Vec<Command>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Command {
    pub kind: CommandKind,
    /// From the command keyword to the end of its last token.
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum CommandKind {
    /// `datatype ... and ...`: one or more mutually recursive datatypes.
    Datatype(Vec<DatatypeDecl>),
    /// `type_synonym ('a, 'b) name = "type"`.
    TypeSynonym { params: Vec<Ident>, name: Ident, rhs: Type },
    /// `primrec`, `fun` and `function` with one or more (mutually recursive) constants:
    /// `fun f :: "T" and g :: "U" where "eq" | "eq"`.
    Fun { kind: FunKind, consts: Vec<ConstDecl>, equations: Vec<Equation> },
    /// `definition f :: "T" where "f x = t"`, also `definition "f x = t"` and `f ≡ λx. t`.
    /// `abbreviation` is read the same way.
    Definition { decl: Option<ConstDecl>, equation: Equation },
    /// `inductive p :: "T" where "intro" | name: "intro"`.
    Inductive { consts: Vec<ConstDecl>, intros: Vec<Equation> },
    /// `lemma`, `theorem`, `corollary`, `proposition`.
    Lemma(Lemma),
    /// `quickcheck[options]` (options may be empty, brackets optional).
    Quickcheck(Vec<QcOption>),
    /// `quickcheck_params[options]`.
    QuickcheckParams(Vec<QcOption>),
    /// `declare [[name = value, ...]]`; other `declare` forms (`declare foo [simp]`) give an
    /// empty list and are otherwise ignored.
    Declare(Vec<QcOption>),
    /// `value "term"` (an optional `[mode]` after `value` is accepted and ignored).
    Value(Term),
    /// A proof step that is skipped: `oops`, `sorry`, `done`, `by ...`, `apply ...`,
    /// `proof ... qed` and the Isar commands inside. Never checked.
    Proof,
    /// `text ‹...›`, `section ‹...›` and the like: read and ignored.
    Text,
    /// A command that asks Isabelle for information or other tools (`nitpick`, `thm`,
    /// `term`, `sledgehammer`, ...) and does not change the theory: reported as ignored.
    Ignored(Ident),
    /// A command that does not change what a lemma means or how it is tested (`lemmas`,
    /// `notation`, `ML`, `hide_const`, ...): skipped, with a note per kind from the parser.
    Skipped(Ident),
    /// `locale name ...`, outside the subset: reported like `Unsupported`, but what it
    /// defines is known (its predicates), so later commands are checked as usual; lemmas in
    /// its context are not tested.
    Locale { keyword: Ident, name: Ident },
    /// `consts`, `axiomatization`, `typedecl` or `typedef`, outside the subset: reported like
    /// `Unsupported`, but the constants and types it declares are known (and have no
    /// definition hol could run), so only lemmas that use them are not tested.
    Declares { keyword: Ident, consts: Vec<Ident>, types: Vec<Ident> },
    /// The commands from here on are in the context of a locale (`context name begin`,
    /// `locale name ... begin`, `lemma (in name)`), or, with `None`, of the theory again:
    /// inserted by the parser where the context changes.
    Target(Option<Ident>),
    /// A command keyword outside the subset (`class`, `typedef`, ...), kept so the
    /// checker can report it; its tokens up to the next command are skipped.
    Unsupported(Ident),
    /// A command that did not parse (its error is already reported), kept so the checker
    /// knows what it would have defined: `defines` lists the constants when its first words
    /// tell (`fun f and g where ...`; none for a lemma), and is `None` when they do not, or
    /// when the command could define anything (an unknown command word).
    Unparsed { keyword: Ident, defines: Option<Vec<Ident>> },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FunKind {
    Primrec,
    Fun,
    Function,
    /// A function Isabelle's datatype package generates (`syntax/generated.rs`): a
    /// theory's own definition of the name hides it, and it fails silently.
    Generated,
}

/// `('a, 'b) name = C1 args | C2 args`.
#[derive(Clone, Debug, PartialEq)]
pub struct DatatypeDecl {
    /// Type parameters as written (`'a`), with optional sort constraints.
    pub params: Vec<TypeVar>,
    pub name: Ident,
    pub ctors: Vec<CtorDecl>,
    pub span: Span,
}

/// `Node "'a tree" 'a "'a tree"`; each argument is a quoted type or a single unquoted type
/// name or variable. A selector `(left: "'a tree")` keeps its name.
#[derive(Clone, Debug, PartialEq)]
pub struct CtorDecl {
    pub name: Ident,
    pub args: Vec<CtorArg>,
    pub span: Span,
    /// `is_Leaf` in `is_Leaf: Leaf`.
    pub discriminator: Option<Ident>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct CtorArg {
    pub selector: Option<Ident>,
    pub ty: Type,
}

/// `name :: "type"` with the type optional (`fun f where ...`). An optional mixfix
/// annotation `("_ ⊕ _" 60)` after the type is skipped.
#[derive(Clone, Debug, PartialEq)]
pub struct ConstDecl {
    pub name: Ident,
    pub ty: Option<Type>,
}

/// One defining equation or introduction rule, with an optional name (`name: "..."`) and
/// optional attributes (`[simp]`, ignored).
#[derive(Clone, Debug, PartialEq)]
pub struct Equation {
    pub name: Option<Ident>,
    pub term: Term,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LemmaKind {
    Lemma,
    Theorem,
    Corollary,
    Proposition,
}

/// `lemma name[attrs]: "stmt"`, or the long form
/// `lemma name: fixes x :: "T" assumes a: "A" and "B" shows "C"`.
#[derive(Clone, Debug, PartialEq)]
pub struct Lemma {
    pub kind: LemmaKind,
    pub name: Option<Ident>,
    /// Declared `[code]`: the statement is a code equation the compiled code runs in place
    /// of the constant's defining equations.
    pub code: bool,
    /// `fixes x :: "T" and y` (type optional).
    pub fixes: Vec<ConstDecl>,
    pub assumes: Vec<Equation>,
    /// The statement(s): for `lemma "stmt"` exactly one; `shows "A" and "B"` gives several.
    pub shows: Vec<Term>,
}

/// `name = value` or a bare `name` (a tester name such as `random`, or a flag such as
/// `quiet`) inside `quickcheck[...]`, `quickcheck_params[...]` or `declare [[...]]`.
#[derive(Clone, Debug, PartialEq)]
pub struct QcOption {
    pub name: Ident,
    /// The value as written: a name, a number or a quoted string's contents.
    pub value: Option<Ident>,
    pub span: Span,
}

/// A type variable `'a` with an optional sort: `'a::linorder`, `'a::{plus, zero}`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TypeVar {
    /// Includes the leading quote: `'a`.
    pub name: Ident,
    pub sort: Vec<Ident>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Type {
    pub kind: TypeKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum TypeKind {
    Var(TypeVar),
    /// A type constructor applied to arguments: `nat`, `'a list`, `('a, 'b) foo`.
    /// `'a × 'b` (also `*`) is `App("prod", [a, b])` and `'a + 'b` is `App("sum", [a, b])`,
    /// with the operator's span as the name's span.
    App(Ident, Vec<Type>),
    /// `'a ⇒ 'b` (right associative, binds loosest).
    Fun(Box<Type>, Box<Type>),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Term {
    pub kind: TermKind,
    pub span: Span,
}

/// A variable bound by a quantifier, λ or comprehension: `x`, `x::nat`, `(x::nat)`.
#[derive(Clone, Debug, PartialEq)]
pub struct Binder {
    pub name: Ident,
    pub ty: Option<Type>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quantifier {
    All,
    Ex,
    Ex1,
}

/// The bound of a bounded quantifier: `∀x∈A.`, `∀x<n.`, `∀x≤n.`.
#[derive(Clone, Debug, PartialEq)]
pub enum QuantBound {
    In(Box<Term>),
    Less(Box<Term>),
    LessEq(Box<Term>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    /// `≡` (`==`), only at the top of a definition.
    Defeq,
    /// `⟹` (`==>`), right associative, outermost.
    MetaImp,
    /// `⟷` (`<->`), also `=` on bool is `Eq`.
    Iff,
    /// `⟶` (`-->`), right associative.
    Imp,
    Or,
    And,
    Eq,
    Neq,
    Lt,
    Le,
    Gt,
    Ge,
    /// `∈` (`:`).
    In,
    /// `∉` (`~:`).
    NotIn,
    /// `⊆` (ASCII `<=` is `Le`; the same constant in Isabelle).
    SubsetEq,
    /// `⊂` (ASCII `<` is `Lt`).
    Subset,
    Dvd,
    /// `#`, right associative at 65.
    Cons,
    /// `@`, right associative at 65.
    Append,
    Plus,
    Minus,
    Union,
    Inter,
    Times,
    Div,
    Mod,
    /// `^`, right associative at 80.
    Power,
    /// `xs ! i`, left associative at 100.
    Nth,
    /// `f ∘ g` (ASCII `o`).
    Comp,
    /// `` f ` A ``, the image of a set, right associative at 90.
    Image,
    /// `r O s`, relation composition (`relcomp`), right associative at 75.
    RelComp,
    /// `r OO s`, composition of predicates (`relcompp`), which hol does not have.
    RelCompp,
    /// `m1 ++ m2`, `map_add`, left associative at 100.
    MapAdd,
    /// `f ^^ n`, `funpow n f` (Isabelle's `compow` on functions), right associative at 80.
    FunPow,
    /// `n choose k`, `binomial n k`, non-associative at 64.
    Choose,
    /// `A × B`, the Cartesian product of two sets (`Times`), right associative at 80.
    Cartesian,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    /// `¬` (`~`).
    Not,
    /// Unary minus `- x` (int negation, set complement).
    Neg,
    /// The postfix `r⇧+` (`trancl`); it and the postfix operators below take an operand of
    /// priority 1000 (an atom: not an application) and have priority 999, as in Isabelle.
    Trancl,
    /// `r⇧*` (`rtrancl`).
    Rtrancl,
    /// `r⇧=` (`reflcl`).
    Reflcl,
    /// `r¯` (`converse`).
    Converse,
    /// `r⇧+⇧+`, `r⇧*⇧*`, `r⇧=⇧=`, `r¯¯`: the predicate forms, which hol does not have.
    Tranclp,
    Rtranclp,
    Reflclp,
    Conversep,
}

impl UnOp {
    /// Whether the operator is written after its operand.
    pub fn is_postfix(self) -> bool {
        !matches!(self, UnOp::Not | UnOp::Neg)
    }
}

/// A qualifier of a list comprehension: `x ← xs` (ASCII `<-`) or a guard `P x`.
#[derive(Clone, Debug, PartialEq)]
pub enum Qualifier {
    Generator(Term, Term),
    Guard(Term),
}

#[derive(Clone, Debug, PartialEq)]
pub enum TermKind {
    /// Any name: a variable, a constant or a constructor (`x`, `rev`, `Suc`, `True`, `None`).
    Name(Ident),
    /// A decimal numeral, digits only (`42`). Negative literals are `Neg` of a numeral.
    Num(String),
    /// `_` (only meaningful in patterns).
    Wildcard,
    App(Box<Term>, Box<Term>),
    /// `λx y. t`, `λ(a, b). t`, `λ_. t`: each parameter is a pattern term.
    Lambda(Vec<Term>, Box<Term>),
    /// `∀x y. P`, `∃x::nat. P`, `∀x∈A. P`, `∃!x. P`.
    Quant {
        q: Quantifier,
        binders: Vec<Binder>,
        bound: Option<QuantBound>,
        body: Box<Term>,
    },
    If(Box<Term>, Box<Term>, Box<Term>),
    /// `let p = t; q = u in v`.
    Let(Vec<(Term, Term)>, Box<Term>),
    /// `case t of p ⇒ u | q ⇒ v`, patterns as terms.
    Case(Box<Term>, Vec<(Term, Term)>),
    /// Binary operator with the operator's own span.
    BinOp(BinOp, Span, Box<Term>, Box<Term>),
    UnOp(UnOp, Span, Box<Term>),
    /// `(a, b, c)` with at least two components (right nested pairs).
    Tuple(Vec<Term>),
    /// `[a, b, c]`, possibly empty.
    List(Vec<Term>),
    /// `[f x. x ← xs, P x]`; the filter form `[x←xs. P x]` is read as `[x. x ← xs, P x]`.
    ListCompr(Box<Term>, Vec<Qualifier>),
    /// `[m..<n]` (exclusive = true) and `[m..n]`.
    Range {
        from: Box<Term>,
        to: Box<Term>,
        exclusive: bool,
    },
    /// `{a, b}`, possibly empty.
    SetLit(Vec<Term>),
    /// `{x. P x}` or `{(x, y). P}` (pattern, body); `{x ∈ A. P x}` is read with body
    /// `x ∈ A ∧ P x`.
    SetCompr(Box<Term>, Box<Term>),
    /// `f(x := y, z := w)`.
    Update(Box<Term>, Vec<(Term, Term)>),
    /// `(t :: type)` or `t :: type` wherever Isabelle allows it.
    /// (`⟦A; B⟧ ⟹ C` is read as `A ⟹ B ⟹ C` with `BinOp::MetaImp`.)
    Typed(Box<Term>, Type),
}

impl Term {
    /// `f a b c` as `(f, [a, b, c])`: the head of an application and its arguments in order.
    pub fn spine(&self) -> (&Term, Vec<&Term>) {
        let mut args = Vec::new();
        let mut head = self;
        while let TermKind::App(f, x) = &head.kind {
            args.push(&**x);
            head = f;
        }
        args.reverse();
        (head, args)
    }
}
