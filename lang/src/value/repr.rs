//! Runtime values of the reference interpreter and their structural equality and order.
//!
//! A value does not carry its type: the IR is monomorphic and every operation whose meaning
//! depends on the type (equality of functions, order on sets, printing) is told it.
//! `nat` and `int` share `Int`; datatype values are a constructor tag and a shared field slice
//! (no allocation for nullary constructors); functions are closures or finite maps; sets are
//! finite sets or complements of finite sets, kept sorted by the structural order.
//!
//! Everything here that follows the shape of data is iterative (equality, order, drop), so a
//! list of a million elements can be compared and dropped on any thread's stack.

use super::arith::Int;
use super::holes::{Demand, Hole};
use crate::core::ir::{FunId, Program, Ty};
use std::any::Any;
use std::cmp::Ordering;
use std::fmt;
use std::rc::Rc;

/// A runtime value.
#[derive(Clone)]
pub enum Value {
    Bool(bool),
    /// A `nat` (never negative) or an `int`.
    Int(Int),
    /// Constructor number `tag` of its datatype applied to its fields.
    Ctor(u32, Fields),
    Fun(Rc<Closure>),
    Set(Rc<SetValue>),
    /// An unknown part of a partial value (the narrowing tester's): evaluation that must
    /// look inside it stops with `EvalError::Need` (see `partial`). Never produced by
    /// evaluation itself, only passed in.
    Hole(Hole),
    /// A value whose computation needed a hole (narrowing): kept instead of failing, so
    /// the demand is raised only if something inspects the value (`partial`).
    Stuck(Demand),
}

/// The fields of a constructor value: shared, immutable, and not allocated when empty.
/// Dropping a long chain of uniquely owned fields (a long list) is iterative.
#[derive(Clone, Default)]
pub struct Fields(Option<Rc<[Value]>>);

/// A function value.
pub enum Closure {
    /// A top-level function applied to fewer arguments than its arity (possibly none).
    Partial { fun: FunId, args: Fields },
    /// A `λ` with the values of its free variables, applied to fewer arguments than it has
    /// parameters (possibly none).
    ///
    /// `code` is the interpreter's code of the λ (`crate::interp`'s `LambdaCode`), opaque
    /// here: values only tell two λs apart by it, by address.
    Lambda { code: Rc<dyn Any>, captured: Fields, args: Fields },
    /// A finite map with a default, `(λ_. default)(k1 := v1, ...)`: `entries` sorted by key
    /// (structural order), keys distinct, no entry mapping to `default`. The form in which
    /// generators produce functions and in which the interpreter tabulates functions over
    /// finite domains (then the default is the most frequent value).
    Map { default: Value, entries: Vec<(Value, Value)> },
}

/// A finite set (`compl == false`) or the complement of one, elements sorted by the
/// structural order and distinct. Over a finite element type the interpreter keeps sets in
/// the finite form, so equal sets are structurally equal.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct SetValue {
    pub(crate) compl: bool,
    pub(crate) elems: Vec<Value>,
}

impl SetValue {
    pub fn empty() -> SetValue {
        SetValue { compl: false, elems: Vec::new() }
    }

    /// The finite set of `elems` (sorted and deduplicated here).
    pub fn finite(mut elems: Vec<Value>) -> SetValue {
        elems.sort();
        elems.dedup();
        SetValue { compl: false, elems }
    }

    /// The complement of the finite set of `elems`. Over a finite element type, use the
    /// interpreter's set operations instead, which keep such sets finite.
    pub fn cofinite(mut elems: Vec<Value>) -> SetValue {
        elems.sort();
        elems.dedup();
        SetValue { compl: true, elems }
    }

    /// Whether this is `- elems` rather than `elems`.
    pub fn is_complement(&self) -> bool {
        self.compl
    }

    pub fn elems(&self) -> &[Value] {
        &self.elems
    }

    /// Membership by structural equality (elements are canonical).
    pub fn contains(&self, x: &Value) -> bool {
        self.elems.binary_search(x).is_ok() != self.compl
    }
}

impl Fields {
    pub fn new(v: Vec<Value>) -> Fields {
        if v.is_empty() {
            Fields(None)
        } else {
            Fields(Some(Rc::from(v)))
        }
    }

    pub fn empty() -> Fields {
        Fields(None)
    }

    pub fn ptr_eq(&self, o: &Fields) -> bool {
        match (&self.0, &o.0) {
            (Some(a), Some(b)) => Rc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        }
    }
}

impl std::ops::Deref for Fields {
    type Target = [Value];
    fn deref(&self) -> &[Value] {
        match &self.0 {
            Some(f) => f,
            None => &[],
        }
    }
}

impl FromIterator<Value> for Fields {
    fn from_iter<I: IntoIterator<Item = Value>>(iter: I) -> Fields {
        let rc: Rc<[Value]> = iter.into_iter().collect();
        if rc.is_empty() {
            Fields(None)
        } else {
            Fields(Some(rc))
        }
    }
}

impl From<Vec<Value>> for Fields {
    fn from(v: Vec<Value>) -> Fields {
        Fields::new(v)
    }
}

impl Drop for Fields {
    fn drop(&mut self) {
        let Some(mut cur) = self.0.take() else { return };
        // Uniquely owned children are detached before their parent is freed, so nested drops
        // never recurse more than one level. The first such child is kept in `next` (a list's
        // tail), the others, if any, on `work`.
        let mut work: Vec<Rc<[Value]>> = Vec::new();
        loop {
            let mut next = None;
            if let Some(slice) = Rc::get_mut(&mut cur) {
                for v in slice.iter_mut() {
                    detach(v, &mut next, &mut work);
                }
            }
            drop(cur);
            match next.or_else(|| work.pop()) {
                Some(n) => cur = n,
                None => break,
            }
        }
    }
}

/// Takes `f`'s slice if this is its only owner.
fn take_unique(f: &mut Fields, next: &mut Option<Rc<[Value]>>, work: &mut Vec<Rc<[Value]>>) {
    if f.0.as_ref().is_some_and(|r| Rc::strong_count(r) == 1 && Rc::weak_count(r) == 0) {
        let r = f.0.take();
        if next.is_none() {
            *next = r;
        } else {
            work.extend(r);
        }
    }
}

/// Moves the field slices owned only by `v` (through constructors and uniquely owned
/// closures and sets) to `next` or `work`.
fn detach(v: &mut Value, next: &mut Option<Rc<[Value]>>, work: &mut Vec<Rc<[Value]>>) {
    match v {
        Value::Ctor(_, f) => take_unique(f, next, work),
        Value::Fun(c) => {
            if let Some(c) = Rc::get_mut(c) {
                match c {
                    Closure::Partial { args, .. } => take_unique(args, next, work),
                    Closure::Lambda { captured, args, .. } => {
                        take_unique(captured, next, work);
                        take_unique(args, next, work);
                    }
                    Closure::Map { default, entries } => {
                        detach(default, next, work);
                        for (k, x) in entries.iter_mut() {
                            detach(k, next, work);
                            detach(x, next, work);
                        }
                    }
                }
            }
        }
        Value::Set(s) => {
            if let Some(s) = Rc::get_mut(s) {
                for x in s.elems.iter_mut() {
                    detach(x, next, work);
                }
            }
        }
        Value::Bool(_) | Value::Int(_) | Value::Hole(_) | Value::Stuck(_) => {}
    }
}

impl Value {
    /// A cheap placeholder (`False`) for unassigned slots.
    pub const FILLER: Value = Value::Bool(false);

    pub fn nat(n: u64) -> Value {
        Value::Int(Int::from(n))
    }

    pub fn int(i: i64) -> Value {
        Value::Int(Int::from(i))
    }

    pub fn ctor(tag: u32, fields: Vec<Value>) -> Value {
        Value::Ctor(tag, Fields::new(fields))
    }

    /// Constructor `tag` over fields given by an iterator of known length, allocated once
    /// (`ctor` takes a vector and copies it).
    pub fn ctor_from<I>(tag: u32, fields: I) -> Value
    where
        I: IntoIterator<Item = Value>,
        I::IntoIter: ExactSizeIterator,
    {
        let fields = fields.into_iter();
        if fields.len() == 0 {
            return Value::nullary(tag);
        }
        Value::Ctor(tag, Fields(Some(fields.collect())))
    }

    pub fn nullary(tag: u32) -> Value {
        Value::Ctor(tag, Fields::empty())
    }

    pub fn set(s: SetValue) -> Value {
        Value::Set(Rc::new(s))
    }

    /// The finite map `(λ_. default)(k1 := v1, ...)`; later entries for the same key win and
    /// entries equal to the default are dropped.
    pub fn fun_map(default: Value, entries: Vec<(Value, Value)>) -> Value {
        let mut entries: Vec<(usize, (Value, Value))> = entries.into_iter().enumerate().collect();
        entries.sort_by(|(i, (k, _)), (j, (l, _))| k.cmp(l).then(j.cmp(i)));
        entries.dedup_by(|later, earlier| later.1 .0 == earlier.1 .0);
        let entries = entries.into_iter().map(|(_, e)| e).filter(|(_, x)| *x != default).collect();
        Value::Fun(Rc::new(Closure::Map { default, entries }))
    }

    /// Whether this is a value of `ty`: a `nat` not negative, a constructor of the datatype
    /// with fields of its field types, a set's elements and a finite map's keys and values
    /// of theirs. A tester's values from outside the interpreter (an SMT model) are checked
    /// with it before they are tested on. Other closures are taken as they are. Iterative,
    /// so a long list does not deepen the stack.
    pub fn conforms(&self, p: &Program, ty: &Ty) -> bool {
        let mut work: Vec<(&Value, &Ty)> = vec![(self, ty)];
        while let Some((v, ty)) = work.pop() {
            match (v, ty) {
                (Value::Bool(_), Ty::Bool) | (Value::Int(_), Ty::Int) => {}
                (Value::Int(i), Ty::Nat) if !i.is_negative() => {}
                (Value::Ctor(tag, fields), Ty::Data(d)) => {
                    let Some(c) = p.data(*d).ctors.get(*tag as usize) else { return false };
                    if c.fields.len() != fields.len() {
                        return false;
                    }
                    work.extend(fields.iter().zip(&c.fields));
                }
                (Value::Set(s), Ty::Set(e)) => work.extend(s.elems.iter().map(|x| (x, &**e))),
                (Value::Fun(f), Ty::Fun(a, r)) => {
                    if let Closure::Map { default, entries } = &**f {
                        work.push((default, r));
                        for (k, x) in entries {
                            work.push((k, a));
                            work.push((x, r));
                        }
                    }
                }
                _ => return false,
            }
        }
        true
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    pub fn as_int(&self) -> Option<&Int> {
        match self {
            Value::Int(i) => Some(i),
            _ => None,
        }
    }

    pub fn tag(&self) -> Option<u32> {
        match self {
            Value::Ctor(t, _) => Some(*t),
            _ => None,
        }
    }

    /// The fields of a constructor value (empty for anything else).
    pub fn fields(&self) -> &[Value] {
        match self {
            Value::Ctor(_, f) => f,
            _ => &[],
        }
    }

    pub fn as_set(&self) -> Option<&SetValue> {
        match self {
            Value::Set(s) => Some(s),
            _ => None,
        }
    }

    fn rank(&self) -> u8 {
        match self {
            Value::Bool(_) => 0,
            Value::Int(_) => 1,
            Value::Ctor(..) => 2,
            Value::Fun(_) => 3,
            Value::Set(_) => 4,
            Value::Hole(_) => 5,
            Value::Stuck(_) => 6,
        }
    }
}

impl Closure {
    fn rank(&self) -> u8 {
        match self {
            Closure::Partial { .. } => 0,
            Closure::Lambda { .. } => 1,
            Closure::Map { .. } => 2,
        }
    }
}

enum Step<'a> {
    Pair(&'a Value, &'a Value),
    /// Decides the comparison if everything pushed after it compared equal.
    Decide(Ordering),
}

fn push_seq<'a>(stack: &mut Vec<Step<'a>>, a: &'a [Value], b: &'a [Value]) {
    stack.push(Step::Decide(a.len().cmp(&b.len())));
    for (x, y) in a.iter().zip(b).rev() {
        stack.push(Step::Pair(x, y));
    }
}

/// The structural total order: numbers numerically, `False < True`, constructors by tag and
/// then fields lexicographically, sets by (complement flag, elements), functions by
/// representation. On types without sets and functions this is the HOL order (`Prim::Lt`).
fn cmp_structural(a: &Value, b: &Value) -> Ordering {
    match (a, b) {
        (Value::Bool(x), Value::Bool(y)) => return x.cmp(y),
        (Value::Int(x), Value::Int(y)) => return x.cmp(y),
        _ => {}
    }
    let mut stack = vec![Step::Pair(a, b)];
    while let Some(step) = stack.pop() {
        let (a, b) = match step {
            Step::Decide(Ordering::Equal) => continue,
            Step::Decide(o) => return o,
            Step::Pair(a, b) => (a, b),
        };
        let o = match (a, b) {
            (Value::Bool(x), Value::Bool(y)) => x.cmp(y),
            (Value::Int(x), Value::Int(y)) => x.cmp(y),
            (Value::Hole(x), Value::Hole(y)) => x.cmp(y),
            (Value::Stuck(x), Value::Stuck(y)) => x.cmp(y),
            (Value::Ctor(t, f), Value::Ctor(u, g)) => {
                if t == u && !f.ptr_eq(g) {
                    push_seq(&mut stack, f, g);
                }
                t.cmp(u)
            }
            (Value::Set(s), Value::Set(t)) => {
                if !Rc::ptr_eq(s, t) && s.compl == t.compl {
                    push_seq(&mut stack, &s.elems, &t.elems);
                }
                s.compl.cmp(&t.compl)
            }
            (Value::Fun(f), Value::Fun(g)) => {
                if Rc::ptr_eq(f, g) {
                    continue;
                }
                match (&**f, &**g) {
                    (Closure::Partial { fun: f1, args: a1 }, Closure::Partial { fun: f2, args: a2 }) => {
                        if f1 == f2 {
                            push_seq(&mut stack, a1, a2);
                        }
                        f1.cmp(f2)
                    }
                    (
                        Closure::Lambda { code: c1, captured: k1, args: a1 },
                        Closure::Lambda { code: c2, captured: k2, args: a2 },
                    ) => {
                        let o = Rc::as_ptr(c1).cast::<u8>().cmp(&Rc::as_ptr(c2).cast::<u8>());
                        if o == Ordering::Equal {
                            push_seq(&mut stack, a1, a2);
                            push_seq(&mut stack, k1, k2);
                        }
                        o
                    }
                    (Closure::Map { default: d1, entries: e1 }, Closure::Map { default: d2, entries: e2 }) => {
                        stack.push(Step::Decide(e1.len().cmp(&e2.len())));
                        for ((k1, v1), (k2, v2)) in e1.iter().zip(e2).rev() {
                            stack.push(Step::Pair(v1, v2));
                            stack.push(Step::Pair(k1, k2));
                        }
                        stack.push(Step::Pair(d1, d2));
                        Ordering::Equal
                    }
                    (x, y) => x.rank().cmp(&y.rank()),
                }
            }
            (x, y) => x.rank().cmp(&y.rank()),
        };
        if o != Ordering::Equal {
            return o;
        }
    }
    Ordering::Equal
}

impl PartialEq for Value {
    fn eq(&self, o: &Value) -> bool {
        match (self, o) {
            (Value::Bool(x), Value::Bool(y)) => x == y,
            (Value::Int(x), Value::Int(y)) => x == y,
            (Value::Ctor(t, f), Value::Ctor(u, g)) if t != u || f.len() != g.len() => false,
            _ => cmp_structural(self, o) == Ordering::Equal,
        }
    }
}

impl Eq for Value {}

impl PartialOrd for Value {
    fn partial_cmp(&self, o: &Value) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

/// The structural order (see `cmp_structural`); sets keep their elements in it.
impl Ord for Value {
    fn cmp(&self, o: &Value) -> Ordering {
        cmp_structural(self, o)
    }
}

impl PartialEq for Fields {
    fn eq(&self, o: &Fields) -> bool {
        self.ptr_eq(o) || **self == **o
    }
}

/// Debug output is depth-limited (it is for diagnostics; `print_value` prints in full).
impl fmt::Debug for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        debug_value(self, f, 0)
    }
}

impl fmt::Debug for Fields {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl fmt::Debug for SetValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        debug_value(&Value::Set(Rc::new(self.clone())), f, 0)
    }
}

impl fmt::Debug for Closure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Closure::Partial { fun, args } => write!(f, "Partial({}, {args:?})", fun.0),
            Closure::Lambda { code, captured, args } => {
                write!(f, "Lambda({:p}, {captured:?}, {args:?})", Rc::as_ptr(code))
            }
            Closure::Map { default, entries } => write!(f, "Map({default:?}, {entries:?})"),
        }
    }
}

const DEBUG_DEPTH: usize = 40;

fn debug_value(v: &Value, f: &mut fmt::Formatter<'_>, depth: usize) -> fmt::Result {
    if depth > DEBUG_DEPTH {
        return write!(f, "…");
    }
    match v {
        Value::Bool(b) => write!(f, "{b}"),
        Value::Int(i) => write!(f, "{i}"),
        Value::Ctor(t, fields) => {
            write!(f, "#{t}")?;
            if !fields.is_empty() {
                write!(f, "(")?;
                for (i, x) in fields.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    debug_value(x, f, depth + 1)?;
                }
                write!(f, ")")?;
            }
            Ok(())
        }
        Value::Fun(c) => match &**c {
            Closure::Map { default, entries } => {
                write!(f, "(λ_. ")?;
                debug_value(default, f, depth + 1)?;
                write!(f, ")(")?;
                for (i, (k, x)) in entries.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    debug_value(k, f, depth + 1)?;
                    write!(f, " := ")?;
                    debug_value(x, f, depth + 1)?;
                }
                write!(f, ")")
            }
            c => write!(f, "{c:?}"),
        },
        Value::Set(s) => {
            if s.compl {
                write!(f, "-")?;
            }
            write!(f, "{{")?;
            for (i, x) in s.elems.iter().enumerate() {
                if i > 0 {
                    write!(f, ", ")?;
                }
                debug_value(x, f, depth + 1)?;
            }
            write!(f, "}}")
        }
        Value::Hole(h) => write!(f, "?{}+{}", h.id, h.suc),
        Value::Stuck(d) => write!(f, "stuck(?{})", d.hole.id),
    }
}
