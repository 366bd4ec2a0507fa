//! Reading the text form of the core IR written by `core::print` (the syntax is described
//! there). A hand-written recursive-descent parser over characters; errors carry the line
//! and column. A program is read twice: the first pass collects the names of datatypes,
//! functions and predicates (so that anything may refer to anything defined later), the
//! second builds the IR with every reference resolved.

use super::ir::*;
use super::print::{clause_vars_bound, fun_vars_bound, is_ident_char, is_ident_start};
use num_bigint::{BigInt, BigUint};
use std::collections::HashMap;
use std::fmt;

/// A syntax or resolution error at a 1-based line and column (in characters).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

impl std::error::Error for ParseError {}

type R<T> = Result<T, ParseError>;

/// A type as written, before datatype references are resolved.
#[derive(Clone, Debug)]
enum TyAst {
    Bool,
    Nat,
    Int,
    Set(Box<TyAst>),
    Fun(Box<TyAst>, Box<TyAst>),
    Data { name: String, index: Option<u32>, args: Vec<TyAst>, pos: usize },
}

/// What names resolve to. The first pass uses a lenient scope that resolves everything to
/// placeholders.
struct Scope {
    lenient: bool,
    datas: Vec<(String, Vec<Ty>)>,
    data_index: HashMap<(String, Vec<Ty>), Vec<u32>>,
    ctors: Vec<Vec<String>>,
    funs: HashMap<String, Vec<u32>>,
    num_funs: usize,
    preds: HashMap<String, Vec<u32>>,
    num_preds: usize,
}

impl Scope {
    fn lenient() -> Scope {
        Scope {
            lenient: true,
            datas: Vec::new(),
            data_index: HashMap::new(),
            ctors: Vec::new(),
            funs: HashMap::new(),
            num_funs: 0,
            preds: HashMap::new(),
            num_preds: 0,
        }
    }

    fn of_program(p: &Program) -> Scope {
        let mut s = Scope::lenient();
        s.lenient = false;
        for (i, d) in p.datas.iter().enumerate() {
            s.datas.push((d.name.clone(), d.args.clone()));
            s.data_index.entry((d.name.clone(), d.args.clone())).or_default().push(i as u32);
            s.ctors.push(d.ctors.iter().map(|c| c.name.clone()).collect());
        }
        for (i, f) in p.funs.iter().enumerate() {
            s.funs.entry(f.name.clone()).or_default().push(i as u32);
        }
        s.num_funs = p.funs.len();
        for (i, f) in p.inductives.iter().enumerate() {
            s.preds.entry(f.name.clone()).or_default().push(i as u32);
        }
        s.num_preds = p.inductives.len();
        s
    }

    /// Resolves a type; errors are (byte position, message).
    fn resolve(&self, t: &TyAst) -> Result<Ty, (usize, String)> {
        if self.lenient {
            return Ok(Ty::Bool);
        }
        Ok(match t {
            TyAst::Bool => Ty::Bool,
            TyAst::Nat => Ty::Nat,
            TyAst::Int => Ty::Int,
            TyAst::Set(e) => Ty::set(self.resolve(e)?),
            TyAst::Fun(a, b) => Ty::fun(self.resolve(a)?, self.resolve(b)?),
            TyAst::Data { name, index, args, pos } => {
                if let Some(i) = index {
                    if (*i as usize) < self.datas.len() {
                        return Ok(Ty::Data(DataId(*i)));
                    }
                    return Err((*pos, format!("no datatype #{i}")));
                }
                let args = args.iter().map(|a| self.resolve(a)).collect::<Result<Vec<_>, _>>()?;
                match self.data_index.get(&(name.clone(), args)).map(|v| &v[..]) {
                    Some([i]) => Ty::Data(DataId(*i)),
                    Some(_) => {
                        return Err((*pos, format!("datatype `{name}` is ambiguous here: write it with its index")))
                    }
                    None => return Err((*pos, format!("unknown datatype `{name}` with these type arguments"))),
                }
            }
        })
    }
}

/// Resolves the datatype headers (names with type arguments that may mention other
/// datatypes) of a program in order.
fn resolve_headers(headers: &[(String, Vec<TyAst>, usize)]) -> Result<Vec<Vec<Ty>>, (usize, String)> {
    struct St<'a> {
        headers: &'a [(String, Vec<TyAst>, usize)],
        done: Vec<Option<Vec<Ty>>>,
        busy: Vec<bool>,
    }
    fn header(st: &mut St, i: usize) -> Result<Vec<Ty>, (usize, String)> {
        if let Some(d) = &st.done[i] {
            return Ok(d.clone());
        }
        st.busy[i] = true;
        let args = st.headers[i].1.iter().map(|a| ty(st, a)).collect::<Result<Vec<_>, _>>()?;
        st.busy[i] = false;
        st.done[i] = Some(args.clone());
        Ok(args)
    }
    fn ty(st: &mut St, t: &TyAst) -> Result<Ty, (usize, String)> {
        Ok(match t {
            TyAst::Bool => Ty::Bool,
            TyAst::Nat => Ty::Nat,
            TyAst::Int => Ty::Int,
            TyAst::Set(e) => Ty::set(ty(st, e)?),
            TyAst::Fun(a, b) => Ty::fun(ty(st, a)?, ty(st, b)?),
            TyAst::Data { name, index: Some(i), pos, .. } => {
                if (*i as usize) < st.headers.len() && st.headers[*i as usize].0 == *name {
                    Ty::Data(DataId(*i))
                } else {
                    return Err((*pos, format!("no datatype `{name}` #{i}")));
                }
            }
            TyAst::Data { name, index: None, args, pos } => {
                let args = args.iter().map(|a| ty(st, a)).collect::<Result<Vec<_>, _>>()?;
                let mut found = Vec::new();
                for j in 0..st.headers.len() {
                    // A header being resolved cannot be its own argument: skip it.
                    let candidate = st.headers[j].0 == *name && st.headers[j].1.len() == args.len() && !st.busy[j];
                    if candidate && header(st, j)? == args {
                        found.push(j);
                    }
                }
                match found[..] {
                    [j] => Ty::Data(DataId(j as u32)),
                    [] => return Err((*pos, format!("unknown datatype `{name}` with these type arguments"))),
                    _ => return Err((*pos, format!("datatype `{name}` is ambiguous here: write it with its index"))),
                }
            }
        })
    }
    let mut st = St { headers, done: vec![None; headers.len()], busy: vec![false; headers.len()] };
    (0..headers.len()).map(|i| header(&mut st, i)).collect()
}

enum Item {
    Data { name: String, args: Vec<TyAst>, ctors: Vec<(String, Vec<TyAst>)>, pos: usize },
    Fun(FunDef),
    Pred(InductiveDef),
}

struct Parser<'s, 'a> {
    src: &'s str,
    pos: usize,
    scope: &'a Scope,
}

use super::print::PRIM_NAMES as PRIMS;

impl<'s, 'a> Parser<'s, 'a> {
    fn new(src: &'s str, scope: &'a Scope) -> Parser<'s, 'a> {
        Parser { src, pos: 0, scope }
    }

    fn error_at(&self, pos: usize, msg: impl Into<String>) -> ParseError {
        let before = &self.src[..pos.min(self.src.len())];
        let line = before.matches('\n').count() + 1;
        let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        ParseError { line, column: col, message: msg.into() }
    }

    fn err<T>(&self, msg: impl Into<String>) -> R<T> {
        Err(self.error_at(self.pos, msg))
    }

    fn rest(&self) -> &'s str {
        &self.src[self.pos..]
    }

    fn skip_ws(&mut self) {
        loop {
            let r = self.rest();
            let t = r.trim_start();
            self.pos += r.len() - t.len();
            if t.starts_with(';') {
                self.pos += t.find('\n').unwrap_or(t.len());
            } else {
                return;
            }
        }
    }

    fn peek(&mut self) -> Option<char> {
        self.skip_ws();
        self.rest().chars().next()
    }

    fn at_end(&mut self) -> bool {
        self.peek().is_none()
    }

    /// One or more `item`s separated by commas.
    fn comma_list<T>(&mut self, mut item: impl FnMut(&mut Self) -> R<T>) -> R<Vec<T>> {
        let mut out = vec![item(self)?];
        while self.eat(",") {
            out.push(item(self)?);
        }
        Ok(out)
    }

    /// After an opening `(`: zero or more comma-separated `item`s and the closing `)`.
    fn parenthesized<T>(&mut self, item: impl FnMut(&mut Self) -> R<T>) -> R<Vec<T>> {
        if self.eat(")") {
            return Ok(Vec::new());
        }
        let out = self.comma_list(item)?;
        self.expect(")")?;
        Ok(out)
    }

    /// Consumes the punctuation `s` if it comes next.
    fn eat(&mut self, s: &str) -> bool {
        self.skip_ws();
        if self.rest().starts_with(s) {
            self.pos += s.len();
            true
        } else {
            false
        }
    }

    fn expect(&mut self, s: &str) -> R<()> {
        if self.eat(s) {
            Ok(())
        } else {
            let found: String = self.rest().chars().take(12).collect();
            let found = if found.is_empty() { "end of input".to_string() } else { format!("`{found}`") };
            self.err(format!("expected `{s}`, found {found}"))
        }
    }

    /// The identifier that comes next, without consuming it.
    fn peek_ident(&mut self) -> Option<&'s str> {
        self.skip_ws();
        let r = self.rest();
        let mut cs = r.char_indices();
        match cs.next() {
            Some((_, c)) if is_ident_start(c) => {}
            _ => return None,
        }
        let end = cs.find(|(_, c)| !is_ident_char(*c)).map_or(r.len(), |(i, _)| i);
        Some(&r[..end])
    }

    fn ident(&mut self) -> R<&'s str> {
        match self.peek_ident() {
            Some(id) => {
                self.pos += id.len();
                Ok(id)
            }
            None => self.err("expected a name"),
        }
    }

    fn eat_word(&mut self, w: &str) -> bool {
        if self.peek_ident() == Some(w) {
            self.pos += w.len();
            true
        } else {
            false
        }
    }

    fn expect_word(&mut self, w: &str) -> R<()> {
        if self.eat_word(w) {
            Ok(())
        } else {
            self.err(format!("expected `{w}`"))
        }
    }

    fn string(&mut self) -> R<String> {
        self.expect("\"")?;
        let mut out = String::new();
        let mut chars = self.rest().char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                '"' => {
                    self.pos += i + 1;
                    return Ok(out);
                }
                '\\' => match chars.next() {
                    Some((_, 'n')) => out.push('\n'),
                    Some((_, 't')) => out.push('\t'),
                    Some((_, 'u')) => {
                        let rest = &self.rest()[i + 2..];
                        let Some(close) = rest.find('}') else { return self.err("bad \\u escape") };
                        let code = rest.get(1..close).and_then(|h| u32::from_str_radix(h, 16).ok());
                        let Some(ch) = code.and_then(char::from_u32) else { return self.err("bad \\u escape") };
                        out.push(ch);
                        for _ in 0..close + 1 {
                            chars.next();
                        }
                    }
                    Some((_, c)) => out.push(c),
                    None => break,
                },
                c => out.push(c),
            }
        }
        self.err("unterminated string")
    }

    /// A function or predicate name: a string, or an identifier with an optional bracketed
    /// suffix taken verbatim (`rev[nat]`).
    fn raw_name(&mut self) -> R<String> {
        if self.peek() == Some('"') {
            return self.string();
        }
        let id = self.ident()?;
        let mut name = id.to_string();
        if self.rest().starts_with('[') {
            let mut depth = 0;
            for (i, c) in self.rest().char_indices() {
                match c {
                    '[' => depth += 1,
                    ']' => {
                        depth -= 1;
                        if depth == 0 {
                            name.push_str(&self.rest()[..i + 1]);
                            self.pos += i + 1;
                            return Ok(name);
                        }
                    }
                    '\n' | '"' => break,
                    _ => {}
                }
            }
            return self.err("unbalanced `[` in a name");
        }
        Ok(name)
    }

    fn number(&mut self) -> R<BigUint> {
        self.skip_ws();
        let r = self.rest();
        let end = r.find(|c: char| !c.is_ascii_digit()).unwrap_or(r.len());
        if end == 0 {
            return self.err("expected a number");
        }
        let n = r[..end].parse::<BigUint>().map_err(|_| self.error_at(self.pos, "bad number"))?;
        self.pos += end;
        Ok(n)
    }

    fn small_number(&mut self) -> R<u32> {
        let at = self.pos;
        let n = self.number()?;
        u32::try_from(n).map_err(|_| self.error_at(at, "number too large"))
    }

    /// `#N`, if it comes next.
    fn index(&mut self) -> R<Option<u32>> {
        if self.eat("#") {
            Ok(Some(self.small_number()?))
        } else {
            Ok(None)
        }
    }

    fn var(&mut self) -> R<VarId> {
        self.skip_ws();
        let at = self.pos;
        let id = self.ident()?;
        match id.strip_prefix('v').and_then(|d| d.parse::<u32>().ok()) {
            Some(n) if id.len() > 1 && id[1..].bytes().all(|b| b.is_ascii_digit()) => Ok(VarId(n)),
            _ => Err(self.error_at(at, format!("expected a variable `v<number>`, found `{id}`"))),
        }
    }

    fn resolve(&self, t: &TyAst) -> R<Ty> {
        self.scope.resolve(t).map_err(|(pos, msg)| self.error_at(pos, msg))
    }

    fn ty_ast(&mut self) -> R<TyAst> {
        self.skip_ws();
        let at = self.pos;
        if self.eat("(") {
            let mut parts = vec![self.ty_ast()?];
            while self.eat("=>") {
                parts.push(self.ty_ast()?);
            }
            self.expect(")")?;
            let mut t = parts.pop().expect("one part at least");
            while let Some(a) = parts.pop() {
                t = TyAst::Fun(Box::new(a), Box::new(t));
            }
            return Ok(t);
        }
        let name = if self.peek() == Some('"') {
            self.string()?
        } else {
            match self.ident()? {
                "bool" => return Ok(TyAst::Bool),
                "nat" => return Ok(TyAst::Nat),
                "int" => return Ok(TyAst::Int),
                "set" => {
                    self.expect("[")?;
                    let e = self.ty_ast()?;
                    self.expect("]")?;
                    return Ok(TyAst::Set(Box::new(e)));
                }
                id => id.to_string(),
            }
        };
        let index = self.index()?;
        let args = self.ty_args()?;
        Ok(TyAst::Data { name, index, args, pos: at })
    }

    fn ty_args(&mut self) -> R<Vec<TyAst>> {
        let mut args = Vec::new();
        if self.rest().starts_with('[') {
            self.pos += 1;
            args = self.comma_list(Self::ty_ast)?;
            self.expect("]")?;
        }
        Ok(args)
    }

    fn ty(&mut self) -> R<Ty> {
        let t = self.ty_ast()?;
        self.resolve(&t)
    }

    fn binder(&mut self) -> R<(VarId, Ty)> {
        let v = self.var()?;
        self.expect(":")?;
        Ok((v, self.ty()?))
    }

    fn args(&mut self) -> R<Vec<Expr>> {
        self.expect("(")?;
        self.parenthesized(Self::expr)
    }

    fn fun_ref(&mut self) -> R<FunId> {
        let names = &self.scope.funs;
        self.named_ref(names, self.scope.num_funs, "function", "@#<index>").map(FunId)
    }

    fn pred_ref(&mut self) -> R<PredId> {
        let names = &self.scope.preds;
        self.named_ref(names, self.scope.num_preds, "inductive predicate", "#<index>").map(PredId)
    }

    /// A reference to a function or predicate: `#3` by index, or by a name that must be
    /// unique among the `count` defined (`what` and `by_index` word the errors).
    fn named_ref(&mut self, names: &HashMap<String, Vec<u32>>, count: usize, what: &str, by_index: &str) -> R<u32> {
        self.skip_ws();
        let at = self.pos;
        if let Some(i) = self.index()? {
            if self.scope.lenient || (i as usize) < count {
                return Ok(i);
            }
            return Err(self.error_at(at, format!("no {what} #{i}")));
        }
        let name = self.raw_name()?;
        if self.scope.lenient {
            return Ok(0);
        }
        match names.get(&name).map(|v| &v[..]) {
            Some([i]) => Ok(*i),
            Some(_) => Err(self.error_at(at, format!("{what} `{name}` is ambiguous: refer to it as `{by_index}`"))),
            None => Err(self.error_at(at, format!("unknown {what} `{name}`"))),
        }
    }

    /// A constructor of datatype `data`: a name, a quoted name, or `#tag`.
    fn ctor_tag(&mut self, data: &Ty) -> R<u32> {
        self.skip_ws();
        let at = self.pos;
        let name = if let Some(t) = self.index()? {
            return Ok(t);
        } else if self.peek() == Some('"') {
            self.string()?
        } else {
            self.ident()?.to_string()
        };
        if self.scope.lenient {
            return Ok(0);
        }
        let Ty::Data(id) = data else { return Err(self.error_at(at, "constructor of a type that is not a datatype")) };
        let ctors = &self.scope.ctors[id.0 as usize];
        match ctors.iter().position(|c| *c == name) {
            Some(t) => Ok(t as u32),
            None => {
                Err(self
                    .error_at(at, format!("`{name}` is not a constructor of `{}`", self.scope.datas[id.0 as usize].0)))
            }
        }
    }

    fn data_id(&self, t: &Ty, at: usize) -> R<DataId> {
        match t {
            Ty::Data(id) => Ok(*id),
            _ if self.scope.lenient => Ok(DataId(0)),
            _ => Err(self.error_at(at, "expected a datatype")),
        }
    }

    fn expr(&mut self) -> R<Expr> {
        self.skip_ws();
        let at = self.pos;
        let Some(c) = self.peek() else { return self.err("expected a term, found end of input") };
        if c == '@' {
            self.pos += 1;
            let f = self.fun_ref()?;
            return if self.peek() == Some('(') { Ok(Expr::Call(f, self.args()?)) } else { Ok(Expr::FunRef(f)) };
        }
        if c == '{' {
            self.pos += 1;
            let (var, ty) = self.binder()?;
            let domain = if self.eat_word("in") { Some(Box::new(self.expr()?)) } else { None };
            self.expect(".")?;
            let body = Box::new(self.expr()?);
            self.expect("}")?;
            return Ok(Expr::SetCompr { var, ty, domain, body });
        }
        if c == '-' || c.is_ascii_digit() {
            return self.literal();
        }
        if c == '"' {
            return self.ctor_expr();
        }
        let Some(word) = self.peek_ident() else { return self.err(format!("expected a term, found `{c}`")) };
        if word.len() > 1 && word.starts_with('v') && word[1..].bytes().all(|b| b.is_ascii_digit()) {
            return Ok(Expr::Var(self.var()?));
        }
        if PRIMS.contains(&word) {
            return self.prim();
        }
        let keyword = matches!(
            word,
            "True" | "False" | "apply" | "fn" | "let" | "if" | "case" | "all" | "ex" | "ex1" | "pred" | "undefined"
        );
        if !keyword {
            return self.ctor_expr();
        }
        self.pos += word.len();
        match word {
            "True" => Ok(Expr::Lit(Lit::Bool(true))),
            "False" => Ok(Expr::Lit(Lit::Bool(false))),
            "apply" => {
                let mut args = self.args()?;
                if args.is_empty() {
                    return Err(self.error_at(at, "`apply` needs a function"));
                }
                let f = args.remove(0);
                Ok(Expr::Apply(Box::new(f), args))
            }
            "fn" => {
                self.expect("(")?;
                let params = self.parenthesized(Self::binder)?;
                self.expect("=>")?;
                Ok(Expr::Lambda(params, Box::new(self.expr()?)))
            }
            "let" => {
                let (v, t) = self.binder()?;
                self.expect("=")?;
                let rhs = self.expr()?;
                self.expect_word("in")?;
                let body = self.expr()?;
                Ok(Expr::Let(v, t, Box::new(rhs), Box::new(body)))
            }
            "if" => {
                let c = self.expr()?;
                self.expect_word("then")?;
                let a = self.expr()?;
                self.expect_word("else")?;
                let b = self.expr()?;
                Ok(Expr::If(Box::new(c), Box::new(a), Box::new(b)))
            }
            "case" => self.case(),
            "all" | "ex" | "ex1" => {
                let q = match word {
                    "all" => Quant::All,
                    "ex" => Quant::Ex,
                    _ => Quant::Ex1,
                };
                let (var, ty) = self.binder()?;
                let domain = if self.eat_word("in") { Some(Box::new(self.expr()?)) } else { None };
                self.expect(".")?;
                let body = Box::new(self.expr()?);
                Ok(Expr::Quant { q, var, ty, domain, body })
            }
            "pred" => {
                let id = self.pred_ref()?;
                Ok(Expr::Pred(id, self.args()?))
            }
            "undefined" => {
                self.skip_ws();
                if self.src[self.pos..].starts_with("case ") {
                    self.pos += "case".len();
                    self.skip_ws();
                    Ok(Expr::Undefined(Undef::Case(self.string()?)))
                } else if self.peek() == Some('"') {
                    Ok(Expr::Undefined(Undef::Match(self.string()?)))
                } else {
                    Ok(Expr::Undefined(Undef::Undefined))
                }
            }
            _ => unreachable!("keywords are listed above"),
        }
    }

    fn literal(&mut self) -> R<Expr> {
        let neg = self.eat("-");
        let n = self.number()?;
        let int = self.rest().starts_with('i') && !self.rest()[1..].starts_with(is_ident_char);
        if int {
            self.pos += 1;
            let i = BigInt::from(n);
            Ok(Expr::Lit(Lit::Int(if neg { -i } else { i })))
        } else if neg {
            self.err("a negative literal must be an int (`-3i`)")
        } else {
            Ok(Expr::Lit(Lit::Nat(n)))
        }
    }

    /// `type::Ctor` or `type::Ctor(args)`.
    fn ctor_expr(&mut self) -> R<Expr> {
        self.skip_ws();
        let at = self.pos;
        let t = self.ty()?;
        let data = self.data_id(&t, at)?;
        self.expect("::")?;
        let tag = self.ctor_tag(&t)?;
        let args = if self.rest().starts_with('(') { self.args()? } else { Vec::new() };
        Ok(Expr::Ctor(CtorRef { data, tag }, args))
    }

    fn prim(&mut self) -> R<Expr> {
        let name = self.ident()?;
        let num = |s: &str| if s.ends_with("_nat") { NumTy::Nat } else { NumTy::Int };
        let typed = |p: &mut Self| -> R<Ty> {
            p.expect("[")?;
            let t = p.ty()?;
            p.expect("]")?;
            Ok(t)
        };
        let prim = match name {
            "add_nat" | "add_int" => Prim::Add(num(name)),
            "sub_nat" | "sub_int" => Prim::Sub(num(name)),
            "mul_nat" | "mul_int" => Prim::Mul(num(name)),
            "div_nat" | "div_int" => Prim::Div(num(name)),
            "mod_nat" | "mod_int" => Prim::Mod(num(name)),
            "neg" => Prim::Neg,
            "suc" => Prim::Suc,
            "int_of_nat" => Prim::IntOfNat,
            "nat_of_int" => Prim::NatOfInt,
            "not" => Prim::Not,
            "eq" => Prim::Eq(typed(self)?),
            "lt" => Prim::Lt(typed(self)?),
            "le" => Prim::Le(typed(self)?),
            "set_empty" => Prim::SetEmpty(typed(self)?),
            "set_univ" => Prim::SetUniv(typed(self)?),
            "set_insert" => Prim::SetInsert(typed(self)?),
            "set_member" => Prim::SetMember(typed(self)?),
            "set_union" => Prim::SetUnion(typed(self)?),
            "set_inter" => Prim::SetInter(typed(self)?),
            "set_diff" => Prim::SetDiff(typed(self)?),
            "set_compl" => Prim::SetCompl(typed(self)?),
            "set_to_list" => Prim::SetToList(typed(self)?),
            "set_finite" => Prim::SetFinite(typed(self)?),
            _ => unreachable!("primitive names are listed in PRIMS"),
        };
        Ok(Expr::Prim(prim, self.args()?))
    }

    fn case(&mut self) -> R<Expr> {
        let scrut = Box::new(self.expr()?);
        self.expect(":")?;
        self.skip_ws();
        let at = self.pos;
        let t = self.ty_ast()?;
        self.expect("{")?;
        if let TyAst::Nat = t {
            let (mut zero, mut succ) = (None, None);
            while !self.eat("}") {
                if self.eat("0") {
                    self.expect("=>")?;
                    zero = Some(Box::new(self.expr()?));
                } else {
                    self.expect_word("Suc")?;
                    self.expect("(")?;
                    let v = self.var()?;
                    self.expect(")")?;
                    self.expect("=>")?;
                    succ = Some((v, Box::new(self.expr()?)));
                }
            }
            let (Some(zero), Some((pred, succ))) = (zero, succ) else {
                return Err(self.error_at(at, "a case on nat needs a `0` and a `Suc(v)` alternative"));
            };
            return Ok(Expr::NatCase { scrut, zero, pred, succ });
        }
        let t = self.resolve(&t)?;
        let data = self.data_id(&t, at)?;
        let mut alts = Vec::new();
        let mut default = None;
        while !self.eat("}") {
            if self.eat_word("_") {
                self.expect("=>")?;
                default = Some(Box::new(self.expr()?));
                continue;
            }
            let tag = self.ctor_tag(&t)?;
            let mut binders = Vec::new();
            if self.eat("(") {
                binders = self.comma_list(Self::var)?;
                self.expect(")")?;
            }
            self.expect("=>")?;
            alts.push(Alt { tag, binders, body: self.expr()? });
        }
        Ok(Expr::Case { scrut, data, alts, default })
    }

    fn items(&mut self) -> R<Vec<Item>> {
        let mut items = Vec::new();
        while !self.at_end() {
            let at = self.pos;
            match self.ident() {
                Ok("data") => items.push(self.data_item(at)?),
                Ok("fun") => items.push(Item::Fun(self.fun_item()?)),
                Ok("inductive") => items.push(Item::Pred(self.pred_item()?)),
                _ => return Err(self.error_at(at, "expected `data`, `fun` or `inductive`")),
            }
        }
        Ok(items)
    }

    fn at_item_start(&mut self) -> bool {
        self.at_end() || matches!(self.peek_ident(), Some("data" | "fun" | "inductive"))
    }

    fn data_item(&mut self, at: usize) -> R<Item> {
        let name = if self.peek() == Some('"') { self.string()? } else { self.ident()?.to_string() };
        let args = self.ty_args()?;
        self.expect("=")?;
        let mut ctors = Vec::new();
        if !self.at_item_start() {
            loop {
                let cname = if self.peek() == Some('"') { self.string()? } else { self.ident()?.to_string() };
                let mut fields = Vec::new();
                if self.rest().starts_with('(') {
                    self.pos += 1;
                    fields = self.comma_list(Self::ty_ast)?;
                    self.expect(")")?;
                }
                ctors.push((cname, fields));
                if !self.eat("|") {
                    break;
                }
            }
        }
        Ok(Item::Data { name, args, ctors, pos: at })
    }

    fn fun_item(&mut self) -> R<FunDef> {
        let name = self.raw_name()?;
        self.expect("(")?;
        let params = self.parenthesized(Self::binder)?;
        self.expect("->")?;
        let ret = self.ty()?;
        let vars = if self.eat_word("vars") { Some(self.small_number()?) } else { None };
        self.expect("=")?;
        let body = self.expr()?;
        let mut f = FunDef { name, params, ret, body, num_vars: 0 };
        f.num_vars = vars.unwrap_or_else(|| fun_vars_bound(&f));
        Ok(f)
    }

    fn pred_item(&mut self) -> R<InductiveDef> {
        let name = self.raw_name()?;
        self.expect("(")?;
        let params = self.parenthesized(Self::ty)?;
        self.expect("=")?;
        let mut clauses = Vec::new();
        while self.eat("|") {
            let mut vars = Vec::new();
            if self.eat_word("forall") {
                vars = self.comma_list(Self::binder)?;
                self.expect(".")?;
            }
            self.skip_ws();
            if self.index()?.is_none() {
                self.raw_name()?;
            }
            let head = self.args()?;
            let mut premises = Vec::new();
            if self.eat("<==") {
                premises = self.comma_list(Self::expr)?;
            }
            let n = if self.eat_word("vars") { Some(self.small_number()?) } else { None };
            let mut c = Clause { vars, head, premises, num_vars: 0 };
            c.num_vars = n.unwrap_or_else(|| clause_vars_bound(&c));
            clauses.push(c);
        }
        Ok(InductiveDef { name, params, clauses })
    }
}

/// Reads a whole program.
pub fn parse_program(text: &str) -> Result<Program, ParseError> {
    let lenient = Scope::lenient();
    let first = Parser::new(text, &lenient).items()?;
    let mut headers = Vec::new();
    let mut scope = Scope::lenient();
    scope.lenient = false;
    for item in &first {
        match item {
            Item::Data { name, args, ctors, pos } => {
                headers.push((name.clone(), args.clone(), *pos));
                scope.ctors.push(ctors.iter().map(|(c, _)| c.clone()).collect());
            }
            Item::Fun(f) => {
                scope.funs.entry(f.name.clone()).or_default().push(scope.num_funs as u32);
                scope.num_funs += 1;
            }
            Item::Pred(p) => {
                scope.preds.entry(p.name.clone()).or_default().push(scope.num_preds as u32);
                scope.num_preds += 1;
            }
        }
    }
    let at = |pos: usize| Parser::new(text, &lenient).error_at(pos, "");
    let resolved = resolve_headers(&headers).map_err(|(pos, msg)| ParseError { message: msg, ..at(pos) })?;
    for (i, ((name, _, _), args)) in headers.iter().zip(&resolved).enumerate() {
        scope.datas.push((name.clone(), args.clone()));
        scope.data_index.entry((name.clone(), args.clone())).or_default().push(i as u32);
    }
    let second = Parser::new(text, &scope).items()?;
    let mut p = Program::default();
    for item in second {
        match item {
            Item::Data { name, ctors, .. } => {
                let mut cs = Vec::new();
                for (cname, fields) in ctors {
                    let fields = fields
                        .iter()
                        .map(|f| scope.resolve(f))
                        .collect::<Result<Vec<_>, _>>()
                        .map_err(|(pos, msg)| ParseError { message: msg, ..at(pos) })?;
                    cs.push(CtorDef { name: cname, fields });
                }
                let args = resolved[p.datas.len()].clone();
                p.datas.push(DataDef { name, args, ctors: cs });
            }
            Item::Fun(f) => p.funs.push(f),
            Item::Pred(d) => p.inductives.push(d),
        }
    }
    Ok(p)
}

/// Reads a term of program `p`.
pub fn parse_expr(p: &Program, text: &str) -> Result<Expr, ParseError> {
    let scope = Scope::of_program(p);
    let mut parser = Parser::new(text, &scope);
    let e = parser.expr()?;
    if !parser.at_end() {
        return parser.err("unexpected text after the term");
    }
    Ok(e)
}

/// Reads a type of program `p`.
pub fn parse_ty(p: &Program, text: &str) -> Result<Ty, ParseError> {
    let scope = Scope::of_program(p);
    let mut parser = Parser::new(text, &scope);
    let t = parser.ty()?;
    if !parser.at_end() {
        return parser.err("unexpected text after the type");
    }
    Ok(t)
}
