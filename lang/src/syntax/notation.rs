//! User notation: the mixfix annotations of constants and constructors
//! (`fun plus_p :: "..." (infixl "⊕" 65)`, `Seq com com ("_;;/ _" [60, 61] 60)`) and the
//! `notation` command, as Isabelle reads them.
//!
//! A declaration adds a template to the [`Table`] in force from then on (Isabelle's
//! syntax is sequential: the declaring command's own equations may use it). The inner
//! lexer asks the table for delimiters ([`Table::match_delimiter`]) and the precedence
//! resolver (`construct`) reads templates from it; a term written with a notation becomes
//! the application of the constant to the arguments, `c a b`, so nothing after the parser
//! knows notations exist.
//!
//! Not supported, each said by a warning at the declaration: `binder` annotations, a
//! template with two arguments side by side, and a delimiter that is one of hol's own
//! structural tokens (`(`, `[`, `{`, `,`, `|`, `=`, ...), which its grammar needs
//! (HOL-Library's `⟨l, x, r⟩` for `Node` is built in, so that one is left out silently).
//! A delimiter that spells one of hol's operators (`:`, `#`) takes it over.

use std::cell::RefCell;
use std::rc::Rc;

use crate::diagnostic::Diagnostic;
use crate::span::Span;

/// A mixfix annotation as written.
#[derive(Clone, Debug, PartialEq)]
pub struct Mixfix {
    pub form: MixfixForm,
    /// The template or delimiter, as written inside its quotes, and where.
    pub text: String,
    pub text_span: Span,
    /// `[p1, ..., pn]` of a template.
    pub arg_prios: Vec<u32>,
    /// The priority (`infixl "⊕" 65`, `("..." [...] 60)`).
    pub prio: Option<u32>,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MixfixForm {
    Template,
    Infix,
    Infixl,
    Infixr,
    Binder,
}

/// One element of a template: an argument place with its least priority, or a delimiter
/// (in its canonical spelling, see [`canonical`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Elem {
    Arg(u32),
    Delim(String),
}

/// A notation in force: `constant` written as `elems`, the whole of priority `prio`.
#[derive(Clone, Debug, PartialEq)]
pub struct Notation {
    pub constant: String,
    pub elems: Vec<Elem>,
    pub prio: u32,
}

impl Notation {
    pub fn delim_at(&self, i: usize) -> Option<&str> {
        match self.elems.get(i) {
            Some(Elem::Delim(d)) => Some(d),
            _ => None,
        }
    }

    pub fn arg_at(&self, i: usize) -> Option<u32> {
        match self.elems.get(i) {
            Some(Elem::Arg(p)) => Some(*p),
            _ => None,
        }
    }
}

/// How a delimiter stands among operands, which tells the grammar which token it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// Between two operands (`⊕` in `_ ⊕ _`, `THEN` in `IF _ THEN _ ELSE _`).
    Infix,
    /// Before an operand only (`IF`, `⟦` in `⟦_⟧`).
    Open,
    /// After an operand only (`⟧`).
    Close,
    /// Neither: a notation for a constant (`⟨⟩`).
    Atom,
}

/// The notations in force at one point of a theory.
#[derive(Clone, Debug, Default)]
pub struct Table {
    notations: Vec<Notation>,
    /// Every delimiter, longest first, with the roles it has in some template.
    delims: Vec<(String, Vec<Role>)>,
}

impl Table {
    pub fn is_empty(&self) -> bool {
        self.notations.is_empty()
    }

    pub fn notations(&self) -> &[Notation] {
        &self.notations
    }

    fn add(&mut self, n: Notation) {
        self.insert(n);
        self.index();
    }

    /// A later declaration for the same constant and template replaces the earlier one.
    fn insert(&mut self, n: Notation) {
        self.notations.retain(|m| !(m.constant == n.constant && m.elems == n.elems));
        self.notations.push(n);
    }

    fn remove(&mut self, constant: &str, elems: Option<&[Elem]>) {
        self.notations.retain(|m| !(m.constant == constant && elems.is_none_or(|e| m.elems == e)));
        self.index();
    }

    fn index(&mut self) {
        let mut delims: Vec<(String, Vec<Role>)> = Vec::new();
        for n in &self.notations {
            for (i, e) in n.elems.iter().enumerate() {
                let Elem::Delim(d) = e else { continue };
                let before = i > 0 && matches!(n.elems[i - 1], Elem::Arg(_));
                let after = matches!(n.elems.get(i + 1), Some(Elem::Arg(_)));
                let role = match (before, after) {
                    (true, true) => Role::Infix,
                    (false, true) => Role::Open,
                    (true, false) => Role::Close,
                    (false, false) => Role::Atom,
                };
                match delims.iter_mut().find(|(e, _)| e == d) {
                    Some((_, roles)) if !roles.contains(&role) => roles.push(role),
                    Some(_) => {}
                    None => delims.push((d.clone(), vec![role])),
                }
            }
        }
        delims.sort_by_key(|(d, _)| std::cmp::Reverse(d.chars().count()));
        self.delims = delims;
    }

    /// The longest delimiter at the start of `text`, with its length in bytes of `text`
    /// and its roles. A delimiter made of name characters (`IF`, `xor`) matches a whole
    /// name only.
    pub fn match_delimiter(&self, text: &str) -> Option<(usize, &[Role])> {
        self.delims.iter().find_map(|(d, roles)| {
            let len = match_canonical(text, d)?;
            let wordy = d.chars().all(is_name_char);
            let ends_name = text[len..].chars().next().is_some_and(is_name_char)
                || (text[len..].starts_with("\\<^sub>") && d.chars().last().is_some_and(is_name_char));
            (!wordy || !ends_name).then_some((len, roles.as_slice()))
        })
    }

    pub fn has_delimiter(&self, d: &str) -> bool {
        self.delims.iter().any(|(e, _)| e == d)
    }

    /// The notations whose element `i` is the delimiter `d` and whose first `i` elements
    /// are arguments exactly when `after_operand` says one was read.
    pub fn starting_with(&self, d: &str, after_operand: bool) -> Vec<usize> {
        let first = usize::from(after_operand);
        (0..self.notations.len())
            .filter(|&k| {
                let n = &self.notations[k];
                n.delim_at(first) == Some(d) && (!after_operand || n.arg_at(0).is_some())
            })
            .collect()
    }

    /// The closing delimiter of a closed notation of one argument (`⟦_⟧`) opened by `d`.
    pub fn closer(&self, d: &str) -> Option<&str> {
        self.notations.iter().find_map(|n| match &n.elems[..] {
            [Elem::Delim(o), Elem::Arg(_), Elem::Delim(c)] if o == d => Some(c.as_str()),
            _ => None,
        })
    }

    pub fn notation(&self, k: usize) -> &Notation {
        &self.notations[k]
    }

    /// The notations of several theories together (a theory's imports), later ones
    /// replacing earlier ones for the same constant and template.
    pub fn merged<'t>(tables: impl IntoIterator<Item = &'t Table>) -> Table {
        let mut all = Table::default();
        for t in tables {
            for n in &t.notations {
                all.insert(n.clone());
            }
        }
        all.index();
        all
    }
}

/// The notations of a theory as its commands declare them, shared by the outer parser's
/// actions (which declare) and the inner parses (which read the table in force).
#[derive(Debug, Default)]
pub struct Notations {
    table: RefCell<Rc<Table>>,
    diagnostics: RefCell<Vec<Diagnostic>>,
}

impl Notations {
    pub fn new(table: Rc<Table>) -> Self {
        Notations { table: RefCell::new(table), diagnostics: RefCell::default() }
    }

    /// The table in force now.
    pub fn current(&self) -> Rc<Table> {
        self.table.borrow().clone()
    }

    /// What declarations said (warnings), taken once.
    pub fn take_diagnostics(&self) -> Vec<Diagnostic> {
        std::mem::take(&mut self.diagnostics.borrow_mut())
    }

    /// Declares `constant` written as `m`; what hol cannot read is a warning at `m`.
    pub fn declare(&self, constant: &str, m: &Mixfix) {
        match template(m) {
            Ok(Some(n)) => {
                let n = Notation { constant: constant.to_string(), ..n };
                Rc::make_mut(&mut self.table.borrow_mut()).add(n);
            }
            Ok(None) => {}
            Err(d) => self.diagnostics.borrow_mut().push(d),
        }
    }

    /// `no_notation c (mixfix)`: drops that notation of `c` (every one, without mixfix).
    pub fn undeclare(&self, constant: &str, m: Option<&Mixfix>) {
        let elems = match m.map(template) {
            Some(Ok(Some(n))) => Some(n.elems),
            Some(_) => return,
            None => None,
        };
        Rc::make_mut(&mut self.table.borrow_mut()).remove(constant, elems.as_deref());
    }
}

/// The tokens of hol's own grammar that a user delimiter may not take over: brackets,
/// separators and keywords the grammar needs to read everything else.
const STRUCTURAL: &[&str] = &[
    "(", ")", "[", "]", "{", "}", ",", ";", ".", "..", "::", ":=", "|", "_", "=", "⟹", "≡", "λ", "∀", "∃", "if",
    "then", "else", "let", "in", "case", "of", "←", "⟦", "⟧", "⦇", "⦈", "⟨", "⟩", "%",
];

/// Reads an annotation into a notation (its constant left empty). `Ok(None)`: nothing to
/// read (a template with no delimiter, as Isabelle's `("_")` for coercions).
fn template(m: &Mixfix) -> Result<Option<Notation>, Diagnostic> {
    let unsupported = |why: String| {
        Err(Diagnostic::warning(m.span, format!("hol does not read this notation: {why}"))
            .with_label("terms that use it will not parse")
            .with_help("write the constant's name instead"))
    };
    let (elems, prio) = match m.form {
        MixfixForm::Binder => return unsupported("binder notations are not supported".into()),
        MixfixForm::Infix | MixfixForm::Infixl | MixfixForm::Infixr => {
            let p = m.prio.unwrap_or(1000);
            let d = canonical(m.text.trim());
            if d.is_empty() || d.contains(char::is_whitespace) {
                return unsupported(format!("`{}` is not one delimiter", m.text));
            }
            let (l, r) = match m.form {
                MixfixForm::Infixl => (p, p + 1),
                MixfixForm::Infixr => (p + 1, p),
                _ => (p + 1, p + 1),
            };
            (vec![Elem::Arg(l), Elem::Delim(d), Elem::Arg(r)], p)
        }
        MixfixForm::Template => {
            let parts = template_parts(&m.text);
            let mut prios = m.arg_prios.iter().copied();
            let elems: Vec<Elem> = parts
                .into_iter()
                .map(|p| match p {
                    None => Elem::Arg(prios.next().unwrap_or(0)),
                    Some(d) => Elem::Delim(d),
                })
                .collect();
            if !elems.iter().any(|e| matches!(e, Elem::Delim(_))) {
                return Ok(None);
            }
            if elems.windows(2).any(|w| matches!(w, [Elem::Arg(_), Elem::Arg(_)])) {
                return unsupported("two arguments side by side".into());
            }
            (elems, m.prio.unwrap_or(1000))
        }
    };
    // hol's grammar needs its structural tokens: a notation using one is not read.
    // HOL-Library.Tree's `⟨l, x, r⟩` for `Node` is built in, so it is left out silently.
    let structural: Vec<&str> = elems
        .iter()
        .filter_map(|e| match e {
            Elem::Delim(d) if STRUCTURAL.contains(&d.as_str()) => Some(d.as_str()),
            _ => None,
        })
        .collect();
    if structural.iter().all(|d| matches!(*d, "⟨" | "," | "⟩")) && !structural.is_empty() {
        return Ok(None);
    }
    if let Some(d) = structural.first() {
        return unsupported(format!("`{d}` is part of hol's own syntax"));
    }
    Ok(Some(Notation { constant: String::new(), elems, prio }))
}

/// The delimiters and argument places (`None`) of a template: `'` quotes the next
/// character, `(` (with an optional indentation) and `)` open and close printing blocks,
/// `/` and `//` are line breaks, and spaces separate delimiters.
fn template_parts(text: &str) -> Vec<Option<String>> {
    let mut parts = Vec::new();
    let mut cur = String::new();
    let flush = |cur: &mut String, parts: &mut Vec<Option<String>>| {
        if !cur.is_empty() {
            parts.push(Some(canonical(cur)));
            cur.clear();
        }
    };
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' => match chars.next() {
                Some(q) if !q.is_whitespace() => cur.push(q),
                _ => flush(&mut cur, &mut parts),
            },
            '_' => {
                flush(&mut cur, &mut parts);
                parts.push(None);
            }
            '(' => {
                flush(&mut cur, &mut parts);
                while chars.peek().is_some_and(char::is_ascii_digit) {
                    chars.next();
                }
            }
            ')' | '/' => flush(&mut cur, &mut parts),
            c if c.is_whitespace() => flush(&mut cur, &mut parts),
            c => cur.push(c),
        }
    }
    flush(&mut cur, &mut parts);
    parts
}

fn is_name_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '\''
}

/// Isabelle's symbols that user notations commonly use, with their Unicode spelling.
/// A delimiter is kept in Unicode; `\<name>` in the source matches it through this table.
const SYMBOLS: &[(&str, char)] = &[
    ("oplus", '⊕'),
    ("otimes", '⊗'),
    ("ominus", '⊖'),
    ("odot", '⊙'),
    ("oslash", '⊘'),
    ("turnstile", '⊢'),
    ("Turnstile", '⊨'),
    ("rightarrow", '→'),
    ("leftarrow", '←'),
    ("Rightarrow", '⇒'),
    ("Leftarrow", '⇐'),
    ("longrightarrow", '⟶'),
    ("Longrightarrow", '⟹'),
    ("mapsto", '↦'),
    ("longmapsto", '⟼'),
    ("leadsto", '↝'),
    ("hookrightarrow", '↪'),
    ("Down", '⇓'),
    ("Up", '⇑'),
    ("down", '↓'),
    ("up", '↑'),
    ("rightharpoonup", '⇀'),
    ("sqsubseteq", '⊑'),
    ("sqsubset", '⊏'),
    ("sqsupseteq", '⊒'),
    ("sqinter", '⊓'),
    ("squnion", '⊔'),
    ("preceq", '≼'),
    ("prec", '≺'),
    ("succeq", '≽'),
    ("succ", '≻'),
    ("lless", '≪'),
    ("ggreater", '≫'),
    ("star", '⋆'),
    ("bullet", '∙'),
    ("cdot", '⋅'),
    ("diamond", '◇'),
    ("box", '□'),
    ("triangleleft", '◃'),
    ("triangleright", '▹'),
    ("lhd", '⊲'),
    ("rhd", '⊳'),
    ("unlhd", '⊴'),
    ("unrhd", '⊵'),
    ("equiv", '≡'),
    ("approx", '≈'),
    ("sim", '∼'),
    ("simeq", '≃'),
    ("cong", '≅'),
    ("parallel", '∥'),
    ("bar", '¦'),
    ("sharp", '♯'),
    ("flat", '♭'),
    ("natural", '♮'),
    ("lbrakk", '⟦'),
    ("rbrakk", '⟧'),
    ("langle", '⟨'),
    ("rangle", '⟩'),
    ("lparr", '⦇'),
    ("rparr", '⦈'),
    ("lceil", '⌈'),
    ("rceil", '⌉'),
    ("lfloor", '⌊'),
    ("rfloor", '⌋'),
    ("Colon", '∷'),
    ("dagger", '†'),
    ("ddagger", '‡'),
    ("section", '§'),
    ("times", '×'),
    ("circ", '∘'),
    ("in", '∈'),
    ("notin", '∉'),
    ("subseteq", '⊆'),
    ("subset", '⊂'),
    ("union", '∪'),
    ("inter", '∩'),
    ("le", '≤'),
    ("ge", '≥'),
    ("noteq", '≠'),
    ("and", '∧'),
    ("or", '∨'),
    ("not", '¬'),
    ("Union", '⋃'),
    ("Inter", '⋂'),
    ("Squnion", '⨆'),
    ("Sqinter", '⨅'),
    ("nabla", '∇'),
    ("Join", '⨝'),
    ("degree", '°'),
];

fn symbol_char(name: &str) -> Option<char> {
    SYMBOLS.iter().find(|(n, _)| *n == name).map(|(_, c)| *c)
}

/// The next symbol of `text` in canonical spelling (`\<oplus>` as `⊕`; an unknown
/// `\<name>` as written) and its length in bytes.
fn next_symbol(text: &str) -> Option<(std::borrow::Cow<'_, str>, usize)> {
    if let Some(rest) = text.strip_prefix("\\<") {
        if let Some(end) = rest.find('>') {
            let name = &rest[..end];
            let len = end + 3;
            return Some(match symbol_char(name) {
                Some(c) => (c.to_string().into(), len),
                None => (text[..len].into(), len),
            });
        }
    }
    let c = text.chars().next()?;
    Some((text[..c.len_utf8()].into(), c.len_utf8()))
}

/// A delimiter's canonical spelling: known `\<name>` symbols in Unicode.
pub fn canonical(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some((s, len)) = next_symbol(rest) {
        out.push_str(&s);
        rest = &rest[len..];
    }
    out
}

/// How many bytes at the start of `text` spell the canonical delimiter `d`, if they do.
fn match_canonical(text: &str, d: &str) -> Option<usize> {
    let (mut t, mut want, mut len) = (text, d, 0);
    while !want.is_empty() {
        let (s, n) = next_symbol(t)?;
        want = want.strip_prefix(&*s)?;
        t = &t[n..];
        len += n;
    }
    Some(len)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mixfix(form: MixfixForm, text: &str, args: &[u32], prio: Option<u32>) -> Mixfix {
        Mixfix {
            form,
            text: text.into(),
            text_span: Span::default(),
            arg_prios: args.to_vec(),
            prio,
            span: Span::default(),
        }
    }

    #[test]
    fn templates_read_as_isabelle_reads_them() {
        let m = mixfix(MixfixForm::Template, "(IF _/ THEN _/ ELSE _)", &[0, 0, 61], Some(61));
        let n = template(&m).unwrap().unwrap();
        let d = |s: &str| Elem::Delim(s.into());
        assert_eq!(n.elems, vec![d("IF"), Elem::Arg(0), d("THEN"), Elem::Arg(0), d("ELSE"), Elem::Arg(61)]);
        let m = mixfix(MixfixForm::Infixl, "\\<oplus>", &[], Some(65));
        assert_eq!(template(&m).unwrap().unwrap().elems, vec![Elem::Arg(65), d("⊕"), Elem::Arg(66)]);
        // `'(` is a quoted parenthesis: a delimiter, and one of hol's own tokens.
        let m = mixfix(MixfixForm::Template, "_ '(_')", &[], None);
        assert!(template(&m).is_err());
        let m = mixfix(MixfixForm::Template, "(1⟨_,/ _,/ _⟩)", &[], None);
        assert_eq!(template(&m).unwrap(), None);
        let m = mixfix(MixfixForm::Binder, "∑", &[], Some(10));
        assert!(template(&m).is_err());
        let m = mixfix(MixfixForm::Template, "_ \\<Down> _", &[], None);
        assert_eq!(template(&m).unwrap().unwrap().elems, vec![Elem::Arg(0), d("⇓"), Elem::Arg(0)]);
    }

    #[test]
    fn delimiters_match_in_either_spelling_and_whole_names() {
        let notations = Notations::default();
        notations.declare("f", &mixfix(MixfixForm::Infixl, "⊕", &[], Some(65)));
        notations.declare("g", &mixfix(MixfixForm::Template, "IF _ THEN _", &[], None));
        let t = notations.current();
        assert_eq!(t.match_delimiter("\\<oplus> x").map(|m| m.0), Some(8));
        assert_eq!(t.match_delimiter("⊕x").map(|m| m.0), Some(3));
        assert_eq!(t.match_delimiter("IF b").map(|m| m.0), Some(2));
        assert!(t.match_delimiter("IFb").is_none());
    }
}
