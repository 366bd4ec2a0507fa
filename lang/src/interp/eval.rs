//! The evaluator: a tree-walking machine over compiled `Node`s with one value stack of
//! frames (a frame holds a function's `num_vars` locals, indexed by `VarId`), curried
//! application of closures, quantifiers and set comprehensions by enumeration, and the guards
//! (fuel, call depth, deadline, machine stack).
//!
//! Calls in tail position (the body of a function, `let`, `if` and `case` branches) reuse
//! the caller's Rust frame, so tail-recursive loops run in constant machine stack and do not
//! count towards the depth limit. Other nesting goes through `eval`, which moves to a fresh
//! stack segment when the current one runs low (`stack::grow`).

use super::compile::{Code, FunCode, LambdaCode, Node, Op};
use super::sets;
use super::types::TyInfo;
use super::{EvalError, Limits};
use crate::core::ir::{FunId, PredId, Quant};
use crate::stack;
use crate::value::holes::{blocked, Hole};
use crate::value::Int;
use crate::value::{Closure, Fields, SetValue, Value};
use std::rc::Rc;
use std::time::Instant;

pub(crate) type R<T> = Result<T, EvalError>;

/// Steps between two looks at the clock.
const CLOCK_INTERVAL: u64 = 4096;

pub(crate) fn ill(what: &str) -> EvalError {
    EvalError::NotExecutable(format!("ill-formed IR: {what}"))
}

/// One evaluation (or a series sharing limits): the code, the value stack and the budgets.
pub(crate) struct Run<'c, 'p> {
    pub code: &'c Code<'p>,
    pub stack: Vec<Value>,
    /// Start of the current frame in `stack`.
    pub base: usize,
    fuel: u64,
    /// Steps since the start, for the clock checks.
    steps: u64,
    next_clock: u64,
    pub depth: u32,
    max_depth: u32,
    deadline: Option<Instant>,
    /// The inductive predicate goals being proved, outermost first (`pred`'s loop check).
    pub pred_goals: Vec<(PredId, Box<[Value]>)>,
    /// The depth bounds of the predicate checks under way, innermost last (`pred`'s
    /// iterative deepening).
    pub pred_scopes: Vec<PredScope>,
    /// Relation calls being run forwards for their outputs (`outputs`), nested.
    pub outputs_depth: u32,
}

/// One predicate check's iterative deepening: recursive goals more than `bound` below the
/// goal at `base` of `pred_goals` are cut (false, and `cut` is set, so a false answer is
/// not final).
pub struct PredScope {
    pub base: usize,
    pub bound: usize,
    pub cut: bool,
}

/// The elements a quantifier or comprehension ranges over.
enum Items {
    Set(Rc<SetValue>),
    Univ(Rc<[Value]>),
}

impl Items {
    fn as_slice(&self) -> &[Value] {
        match self {
            Items::Set(s) => &s.elems,
            Items::Univ(u) => u,
        }
    }
}

impl<'c, 'p> Run<'c, 'p> {
    pub fn new(code: &'c Code<'p>, limits: &Limits, stack: Vec<Value>) -> Run<'c, 'p> {
        Run {
            code,
            stack,
            base: 0,
            fuel: limits.fuel,
            steps: 0,
            next_clock: CLOCK_INTERVAL,
            depth: 0,
            max_depth: limits.max_depth,
            deadline: limits.deadline,
            pred_goals: Vec::new(),
            pred_scopes: Vec::new(),
            outputs_depth: 0,
        }
    }

    /// Units of fuel spent so far.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Spends `n` units of fuel.
    #[inline]
    pub fn charge(&mut self, n: u64) -> R<()> {
        if self.fuel < n {
            self.fuel = 0;
            return Err(EvalError::OutOfFuel);
        }
        self.fuel -= n;
        self.steps += n;
        if self.steps >= self.next_clock {
            self.next_clock = self.steps + CLOCK_INTERVAL;
            if let Some(d) = self.deadline {
                if Instant::now() >= d {
                    return Err(EvalError::Timeout);
                }
            }
        }
        Ok(())
    }

    #[inline]
    pub fn tick(&mut self) -> R<()> {
        self.charge(1)
    }

    #[inline]
    pub fn enter(&mut self) -> R<()> {
        if self.depth >= self.max_depth {
            return Err(EvalError::TooDeep);
        }
        self.depth += 1;
        Ok(())
    }

    #[inline]
    pub fn var(&self, v: u32) -> Value {
        self.stack[self.base + v as usize].clone()
    }

    #[inline]
    pub fn set_var(&mut self, v: u32, x: Value) {
        let i = self.base + v as usize;
        self.stack[i] = x;
    }

    /// Evaluates `e` in the current frame.
    #[inline]
    pub fn eval(&mut self, e: &Node) -> R<Value> {
        // Leaves need neither a stack check nor a frame.
        match e {
            Node::Var(v) => return Ok(self.var(*v)),
            Node::Const(v) => return Ok(v.clone()),
            _ => {}
        }
        match stack::grow(|| self.eval_here(e)) {
            Some(r) => r,
            None => Err(EvalError::TooDeep),
        }
    }

    pub fn eval_bool(&mut self, e: &Node) -> R<bool> {
        match self.eval(e)? {
            Value::Bool(b) => Ok(b),
            v => Err(blocked(&v, false).unwrap_or_else(|| ill("a condition is not a boolean"))),
        }
    }

    fn eval_here(&mut self, e: &Node) -> R<Value> {
        let entry_base = self.base;
        let entry_len = self.stack.len();
        let mut own_frame = false;
        let r = self.eval_loop(e, entry_len, &mut own_frame);
        if own_frame {
            self.stack.truncate(entry_len);
            self.base = entry_base;
            self.depth -= 1;
        }
        r
    }

    /// Follows tail positions in a loop. Once a call has been entered, `own_frame` is set and
    /// the callee's frame starts at `entry_len`; a further tail call replaces it.
    fn eval_loop<'e>(&mut self, mut e: &'e Node, entry_len: usize, own_frame: &mut bool) -> R<Value>
    where
        'c: 'e,
    {
        loop {
            match e {
                Node::Var(v) => return Ok(self.var(*v)),
                Node::Const(v) => return Ok(v.clone()),
                Node::If(c, t, f) => {
                    let len = self.stack.len();
                    match self.eval_bool(c) {
                        Ok(b) => e = if b { t } else { f },
                        Err(d @ EvalError::Need(_)) => {
                            // The failed condition may have left values above the frame.
                            self.stack.truncate(len);
                            return self.parallel_if(d, t, f);
                        }
                        Err(x) => return Err(x),
                    }
                }
                Node::Let(v, rhs, body) => {
                    let x = self.eval_lazy(rhs)?;
                    self.set_var(*v, x);
                    e = body;
                }
                Node::Case { scrut, alts, default } => {
                    let s = self.eval(scrut)?;
                    let Value::Ctor(tag, fields) = &s else {
                        if let Some(d) = blocked(&s, false) {
                            return Err(d);
                        }
                        return Err(ill("case analysis of a value that is not a datatype value"));
                    };
                    match alts.get(*tag as usize) {
                        Some(Some(alt)) => {
                            for (b, x) in alt.binders.iter().zip(fields.iter()) {
                                self.set_var(*b, x.clone());
                            }
                            e = &alt.body;
                        }
                        _ => match default {
                            Some(d) => e = d,
                            None => return Err(ill("case analysis without an alternative for the value")),
                        },
                    }
                }
                Node::NatCase { scrut, zero, pred, succ } => {
                    let n = match self.eval(scrut)? {
                        Value::Int(n) => n,
                        // `Suc^k ?` with k > 0 is a `Suc` whatever `?` is.
                        Value::Hole(h) if h.suc > 0 => {
                            self.set_var(*pred, Value::Hole(Hole { suc: h.suc - 1, ..h }));
                            e = succ;
                            continue;
                        }
                        v => {
                            return Err(blocked(&v, false)
                                .unwrap_or_else(|| ill("nat case analysis of a value that is not a number")))
                        }
                    };
                    if n.is_zero() || n.is_negative() {
                        e = zero;
                    } else {
                        self.set_var(*pred, Value::Int(n.sub(&Int::Small(1))));
                        e = succ;
                    }
                }
                Node::Call(f, args) => {
                    self.tick()?;
                    let code: &'c Code<'p> = self.code;
                    let Some(fc) = code.fun(*f) else { return Err(ill("call of an unknown function")) };
                    let mut new_base = self.stack.len();
                    for a in args.iter() {
                        let v = self.eval_lazy(a)?;
                        self.stack.push(v);
                    }
                    if *own_frame {
                        self.stack.drain(entry_len..new_base);
                        new_base = entry_len;
                    } else {
                        self.enter()?;
                        *own_frame = true;
                    }
                    self.setup_frame(new_base, fc);
                    e = &fc.body;
                }
                _ => return self.eval_other(e),
            }
        }
    }

    /// Turns the arguments at `new_base..` into the frame of `fc` and makes it current.
    fn setup_frame(&mut self, new_base: usize, fc: &FunCode) {
        if fc.params_in_place {
            self.stack.resize(new_base + fc.num_vars.max(fc.arity), Value::FILLER);
        } else {
            let args: Vec<Value> = self.stack.drain(new_base..).collect();
            self.stack.resize(new_base + fc.num_vars, Value::FILLER);
            for (slot, v) in fc.params.iter().zip(args) {
                self.stack[new_base + *slot as usize] = v;
            }
        }
        self.base = new_base;
    }

    /// Calls a top-level function with all its arguments, in a new frame.
    pub fn invoke(&mut self, fc: &FunCode, args: impl IntoIterator<Item = Value>) -> R<Value> {
        self.tick()?;
        self.enter()?;
        let saved_base = self.base;
        let new_base = self.stack.len();
        self.stack.extend(args);
        self.setup_frame(new_base, fc);
        let r = self.eval(&fc.body);
        self.stack.truncate(new_base);
        self.base = saved_base;
        self.depth -= 1;
        r
    }

    fn invoke_lambda(&mut self, lc: &LambdaCode, captured: &Fields, args: impl IntoIterator<Item = Value>) -> R<Value> {
        self.tick()?;
        self.enter()?;
        let saved_base = self.base;
        let new_base = self.stack.len();
        self.stack.resize(new_base + lc.num_vars, Value::FILLER);
        self.base = new_base;
        for (slot, v) in lc.captures.iter().zip(captured.iter()) {
            self.set_var(*slot, v.clone());
        }
        for (slot, v) in lc.params.iter().zip(args) {
            self.set_var(*slot, v);
        }
        let r = self.eval(&lc.body);
        self.stack.truncate(new_base);
        self.base = saved_base;
        self.depth -= 1;
        r
    }

    pub fn call_fun(&mut self, f: FunId, args: Vec<Value>) -> R<Value> {
        let code: &'c Code<'p> = self.code;
        match code.fun(f) {
            Some(fc) if fc.arity == args.len() => self.invoke(fc, args),
            Some(_) => Err(ill("call with the wrong number of arguments")),
            None => Err(ill("call of an unknown function")),
        }
    }

    /// Applies a function value to arguments, one or more at a time (curried semantics).
    pub fn apply(&mut self, mut f: Value, args: Vec<Value>) -> R<Value> {
        let mut rest = &args[..];
        while !rest.is_empty() {
            let Value::Fun(c) = &f else {
                if let Some(d) = blocked(&f, true) {
                    return Err(d);
                }
                return Err(ill("application of a value that is not a function"));
            };
            let c = c.clone();
            f = match &*c {
                Closure::Map { default, entries } => {
                    self.tick()?;
                    let x = &rest[0];
                    rest = &rest[1..];
                    self.holes_in(std::slice::from_ref(x))?;
                    match entries.binary_search_by(|(k, _)| k.cmp(x)) {
                        Ok(i) => entries[i].1.clone(),
                        Err(_) => default.clone(),
                    }
                }
                Closure::Partial { fun, args: prev } => {
                    let code: &'c Code<'p> = self.code;
                    let Some(fc) = code.fun(*fun) else { return Err(ill("reference to an unknown function")) };
                    let need = fc.arity.saturating_sub(prev.len());
                    if rest.len() < need {
                        let all = prev.iter().chain(rest).cloned().collect();
                        return Ok(Value::Fun(Rc::new(Closure::Partial { fun: *fun, args: Fields::new(all) })));
                    }
                    let (now, later) = rest.split_at(need);
                    rest = later;
                    self.invoke(fc, prev.iter().chain(now).cloned())?
                }
                Closure::Lambda { code: opaque, captured, args: prev } => {
                    // Every λ value is made by `closure` below, from the interpreter's code.
                    let Some(code) = opaque.downcast_ref::<LambdaCode>() else {
                        return Err(ill("a λ without the interpreter's code"));
                    };
                    let need = code.params.len().saturating_sub(prev.len());
                    if rest.len() < need {
                        let all = prev.iter().chain(rest).cloned().collect();
                        let (code, captured) = (opaque.clone(), captured.clone());
                        return Ok(Value::Fun(Rc::new(Closure::Lambda { code, captured, args: Fields::new(all) })));
                    }
                    let (now, later) = rest.split_at(need);
                    rest = later;
                    self.invoke_lambda(code, captured, prev.iter().chain(now).cloned())?
                }
            };
        }
        Ok(f)
    }

    fn eval_args(&mut self, args: &[Node]) -> R<Vec<Value>> {
        let mut vals = Vec::with_capacity(args.len());
        for a in args {
            vals.push(self.eval(a)?);
        }
        Ok(vals)
    }

    /// The forms that are not tail positions. Each heavy case is its own function so that
    /// this frame, which stays on the machine stack while arguments are evaluated, is small.
    fn eval_other(&mut self, e: &Node) -> R<Value> {
        match e {
            Node::Ctor(tag, args) => {
                // The fields are evaluated onto the value stack and moved into their slice
                // with one allocation.
                let n = self.stack.len();
                for a in args.iter() {
                    let v = self.eval_lazy(a)?;
                    self.stack.push(v);
                }
                Ok(Value::Ctor(*tag, Fields::from_iter(self.stack.drain(n..))))
            }
            Node::Prim0(op) => self.prim0(op),
            Node::Prim1(op, a) => {
                let a = self.eval(a)?;
                self.prim1(op, a)
            }
            Node::Prim2(op, a, b) => {
                let a = self.eval(a)?;
                let b = self.eval(b)?;
                self.prim2(op, a, b)
            }
            Node::FunRef(f) => Ok(Value::Fun(Rc::new(Closure::Partial { fun: *f, args: Fields::empty() }))),
            Node::Apply(f, args) => {
                let f = self.eval(f)?;
                let mut vals = Vec::with_capacity(args.len());
                for a in args.iter() {
                    vals.push(self.eval_lazy(a)?);
                }
                let args = vals;
                self.apply(f, args)
            }
            Node::Lambda(lc) => Ok(self.closure(lc)),
            Node::Quant { q, var, ty, domain, body } => self.quant(*q, *var, ty, domain.as_deref(), body),
            Node::SetCompr { var, ty, domain, body } => self.set_compr(*var, ty, domain.as_deref(), body),
            Node::Pred(id, args) => {
                let vals = self.eval_args(args)?;
                self.holes_in(&vals)?;
                Ok(Value::Bool(self.pred(*id, &vals)?))
            }
            Node::Undefined(u) => Err(EvalError::Undefined(u.clone())),
            Node::Error(msg) => Err(EvalError::NotExecutable(msg.clone())),
            Node::Var(_)
            | Node::Const(_)
            | Node::If(..)
            | Node::Let(..)
            | Node::Case { .. }
            | Node::NatCase { .. }
            | Node::Call(..) => self.eval_here(e),
        }
    }

    #[inline(never)]
    fn closure(&mut self, lc: &Rc<LambdaCode>) -> Value {
        let captured = lc.captures.iter().map(|v| self.var(*v)).collect();
        let code: Rc<dyn std::any::Any> = lc.clone();
        Value::Fun(Rc::new(Closure::Lambda { code, captured: Fields::new(captured), args: Fields::empty() }))
    }

    #[inline(never)]
    fn set_compr(&mut self, var: u32, ty: &TyInfo, domain: Option<&Node>, body: &Node) -> R<Value> {
        let items = self.items(ty, domain, "set comprehension over")?;
        let mut elems = Vec::new();
        for x in items.as_slice() {
            self.tick()?;
            self.set_var(var, x.clone());
            if self.eval_bool(body)? {
                elems.push(x.clone());
            }
        }
        // The items are sorted and distinct, so the result is canonical.
        Ok(Value::set(SetValue { compl: false, elems }))
    }

    /// What a quantifier or comprehension over `ty` (with an optional domain set) ranges over.
    fn items(&mut self, ty: &TyInfo, domain: Option<&Node>, what: &str) -> R<Items> {
        let p = self.code.prog;
        match domain {
            Some(d) => match self.eval(d)? {
                Value::Set(s) if !s.compl => Ok(Items::Set(s)),
                v @ (Value::Hole(_) | Value::Stuck(_)) => Err(blocked(&v, true).unwrap_or_else(|| ill("hole"))),
                Value::Set(_) => {
                    let name = crate::core::type_syntax::print_type(p, &ty.ty);
                    Err(EvalError::NotExecutable(format!("{what} the complement of a finite set of {name}")))
                }
                _ => Err(ill("the domain of a quantifier is not a set")),
            },
            None => match ty.univ(p) {
                Some(u) => Ok(Items::Univ(u.clone())),
                None => Err(EvalError::NotExecutable(ty.not_enumerable(p, what))),
            },
        }
    }

    #[inline(never)]
    fn quant(&mut self, q: Quant, var: u32, ty: &TyInfo, domain: Option<&Node>, body: &Node) -> R<Value> {
        let items = self.items(ty, domain, "quantifier over")?;
        let mut found = 0;
        for x in items.as_slice() {
            self.tick()?;
            self.set_var(var, x.clone());
            let b = self.eval_bool(body)?;
            match q {
                Quant::All if !b => return Ok(Value::Bool(false)),
                Quant::Ex if b => return Ok(Value::Bool(true)),
                Quant::Ex1 if b => {
                    found += 1;
                    if found > 1 {
                        return Ok(Value::Bool(false));
                    }
                }
                _ => {}
            }
        }
        Ok(Value::Bool(match q {
            Quant::All => true,
            Quant::Ex => false,
            Quant::Ex1 => found == 1,
        }))
    }

    fn prim0(&mut self, op: &Op) -> R<Value> {
        match op {
            Op::SetEmpty => Ok(Value::set(SetValue::empty())),
            Op::SetUniv(t) => Ok(Value::set(match t.univ(self.code.prog) {
                Some(u) => SetValue { compl: false, elems: u.to_vec() },
                None => SetValue { compl: true, elems: Vec::new() },
            })),
            _ => Err(ill("primitive with the wrong number of arguments")),
        }
    }

    fn prim1(&mut self, op: &Op, a: Value) -> R<Value> {
        match (op, a) {
            (Op::Not, Value::Bool(b)) => Ok(Value::Bool(!b)),
            (Op::Neg, Value::Int(i)) => {
                self.charge_big(&i, &i, false)?;
                Ok(Value::Int(i.neg()))
            }
            (Op::Suc, Value::Int(i)) => Ok(Value::Int(i.suc())),
            (Op::IntOfNat, v @ Value::Int(_)) => Ok(v),
            (Op::NatOfInt, Value::Int(i)) => Ok(Value::Int(i.nat_of_int())),
            (Op::SetCompl(t), Value::Set(s)) => {
                self.charge_set(&s, &s)?;
                Ok(Value::set(sets::compl(&s, t.univ(self.code.prog))))
            }
            // A complement is kept only over an infinite type or one too large to enumerate;
            // only the former makes it infinite.
            (Op::SetFinite { infinite }, Value::Set(s)) => Ok(Value::Bool(!(*infinite && s.is_complement()))),
            (Op::Suc, Value::Hole(h)) => Ok(Value::Hole(Hole { suc: h.suc + 1, ..h })),
            (_, v @ (Value::Hole(_) | Value::Stuck(_))) => Err(blocked(&v, true).unwrap_or_else(|| ill("hole"))),
            (Op::SetToList { nil, cons }, Value::Set(s)) => {
                if s.is_complement() {
                    return Err(EvalError::NotExecutable(
                        "the elements of an infinite set (a complement) cannot be listed".into(),
                    ));
                }
                self.charge_set(&s, &s)?;
                let mut list = Value::nullary(*nil);
                for x in s.elems().iter().rev() {
                    list = Value::ctor(*cons, vec![x.clone(), list]);
                }
                Ok(list)
            }
            _ => Err(ill("primitive applied to a value of the wrong kind")),
        }
    }

    fn prim2(&mut self, op: &Op, a: Value, b: Value) -> R<Value> {
        if let (Value::Int(x), Value::Int(y)) = (&a, &b) {
            let r = match op {
                Op::Add => {
                    self.charge_big(x, y, false)?;
                    x.add(y)
                }
                Op::Sub(t) => {
                    self.charge_big(x, y, false)?;
                    x.sub_ty(y, *t)
                }
                Op::Mul => {
                    self.charge_big(x, y, true)?;
                    x.mul(y)
                }
                Op::Div => {
                    self.charge_big(x, y, true)?;
                    x.div(y)
                }
                Op::Mod => {
                    self.charge_big(x, y, true)?;
                    x.modulo(y)
                }
                Op::EqPlain => return Ok(Value::Bool(x == y)),
                Op::LtPlain => return Ok(Value::Bool(x < y)),
                Op::LePlain => return Ok(Value::Bool(x <= y)),
                _ => return self.prim2_general(op, a, b),
            };
            return Ok(Value::Int(r));
        }
        self.prim2_general(op, a, b)
    }

    #[inline(never)]
    fn prim2_general(&mut self, op: &Op, a: Value, b: Value) -> R<Value> {
        let p = self.code.prog;
        if self.code.partial
            || matches!(a, Value::Hole(_) | Value::Stuck(_))
            || matches!(b, Value::Hole(_) | Value::Stuck(_))
        {
            if let Some(r) = self.prim2_partial(op, &a, &b) {
                return r;
            }
        }
        match op {
            Op::EqPlain => Ok(Value::Bool(a == b)),
            Op::LtPlain => Ok(Value::Bool(a < b)),
            Op::LePlain => Ok(Value::Bool(a <= b)),
            Op::Eq(t) => Ok(Value::Bool(self.eq_typed(&a, &b, &t.ty)?)),
            Op::Lt(t) => Ok(Value::Bool(self.cmp_typed(&a, &b, &t.ty)?.is_lt())),
            Op::Le(t) => Ok(Value::Bool(self.cmp_typed(&a, &b, &t.ty)?.is_le())),
            Op::SetInsert(t) => {
                let Value::Set(s) = b else { return Err(ill("insert into a value that is not a set")) };
                let x = self.canon(a, t)?;
                self.charge_set(&s, &s)?;
                Ok(Value::set(sets::insert(&s, x)))
            }
            Op::SetMember(t) => {
                let Value::Set(s) = b else { return Err(ill("membership in a value that is not a set")) };
                let x = self.canon(a, t)?;
                Ok(Value::Bool(s.contains(&x)))
            }
            Op::SetUnion(t) | Op::SetInter(t) | Op::SetDiff(t) => {
                let (Value::Set(x), Value::Set(y)) = (a, b) else {
                    return Err(ill("set operation on values that are not sets"));
                };
                self.charge_set(&x, &y)?;
                let u = t.univ(p);
                Ok(Value::set(match op {
                    Op::SetUnion(_) => sets::union(&x, &y, u),
                    Op::SetInter(_) => sets::inter(&x, &y, u),
                    _ => sets::diff(&x, &y, u),
                }))
            }
            _ => Err(ill("primitive applied to values of the wrong kind")),
        }
    }

    /// Fuel for arithmetic on big numbers, in proportion to the work, charged before it is
    /// done (so a runaway `x * x` loop ends with `OutOfFuel` rather than exhausting memory).
    fn charge_big(&mut self, x: &Int, y: &Int, quadratic: bool) -> R<()> {
        if matches!((x, y), (Int::Small(_), Int::Small(_))) {
            return Ok(());
        }
        let (a, b) = (x.words(), y.words());
        self.charge(if quadratic { a.saturating_mul(b) } else { a + b })
    }

    fn charge_set(&mut self, x: &SetValue, y: &SetValue) -> R<()> {
        let n = (x.elems.len() + y.elems.len()) as u64;
        if n > 64 {
            self.charge(n / 16)?;
        }
        Ok(())
    }
}
