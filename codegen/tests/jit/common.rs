//! The one comparison every test goes through.

use codegen::{Jit, JitOutcome};
use lang::core::ir::{Expr, FunDef, FunId, Program, Ty, VarId};
use lang::interp::{print_value, EvalError, Interp, Limits, Value};

/// How a case ended, when JIT and interpreter did not disagree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Same value or same `Undefined`.
    Agree,
    /// The JIT handed the case over (overflow past 64 bits, or not supported).
    HandedOver,
    /// Both ran into a resource limit (their fuel accounting differs in detail).
    Limited,
}

/// Tallies of verdicts.
#[derive(Default, Debug)]
pub struct Tally {
    pub agree: usize,
    pub handed_over: usize,
    pub limited: usize,
}

impl Tally {
    pub fn add(&mut self, v: Verdict) {
        match v {
            Verdict::Agree => self.agree += 1,
            Verdict::HandedOver => self.handed_over += 1,
            Verdict::Limited => self.limited += 1,
        }
    }
}

fn resource(e: &EvalError) -> bool {
    matches!(e, EvalError::OutOfFuel | EvalError::TooDeep | EvalError::Timeout)
}

/// Compares a JIT result with the interpreter's for a value of type `ty`.
pub fn compare(
    p: &Program,
    ty: &Ty,
    jit: Result<Value, JitOutcome>,
    int: Result<Value, EvalError>,
) -> Result<Verdict, String> {
    match (&jit, &int) {
        (Ok(a), Ok(b)) if a == b => Ok(Verdict::Agree),
        (Err(o), _) if o.hand_over() => Ok(Verdict::HandedOver),
        (Err(JitOutcome::Undefined(u)), Err(EvalError::Undefined(v))) if u == v => Ok(Verdict::Agree),
        (Err(JitOutcome::Need(d)), Err(EvalError::Need(e))) if d == e => Ok(Verdict::Agree),
        (Err(JitOutcome::OutOfFuel | JitOutcome::TooDeep | JitOutcome::Timeout | JitOutcome::OutOfMemory), Err(e))
            if resource(e) =>
        {
            Ok(Verdict::Limited)
        }
        (Ok(_), Err(e)) if resource(e) => Ok(Verdict::Limited),
        _ => {
            let show = |r: &Result<Value, String>| match r {
                Ok(v) => print_value(p, v, ty),
                Err(e) => e.clone(),
            };
            let j = show(&jit.clone().map_err(|e| format!("{e:?}")));
            let i = show(&int.clone().map_err(|e| format!("{e:?}")));
            Err(format!("JIT: {j}\ninterpreter: {i}"))
        }
    }
}

/// Runs `f(args)` on both engines and compares.
pub fn check_call(jit: &mut Jit, f: FunId, args: &[Value], limits: &Limits) -> Result<Verdict, String> {
    let p = jit.program().clone();
    let ret = p.fun(f).ret.clone();
    let j = jit.call(f, args, limits);
    let i = Interp::new(&p).call(f, args.to_vec(), limits);
    compare(&p, &ret, j, i)
}

/// Adds a nullary function with body `e` to a copy of `p`.
pub fn with_main(p: &Program, e: Expr, ret: Ty, num_vars: u32) -> (Program, FunId) {
    with_main_of(p, vec![], e, ret, num_vars)
}

/// Adds a function with `params` and body `e` to a copy of `p`.
pub fn with_main_of(p: &Program, params: Vec<(VarId, Ty)>, e: Expr, ret: Ty, num_vars: u32) -> (Program, FunId) {
    let mut q = p.clone();
    q.funs.push(FunDef { name: "main".into(), params, ret, body: e, num_vars });
    let id = FunId(q.funs.len() as u32 - 1);
    (q, id)
}

/// Compiles `p` and checks `f()` on both engines.
pub fn check_closed(p: &Program, f: FunId, limits: &Limits) -> Result<Verdict, String> {
    let mut jit = Jit::compile(p).map_err(|e| e.to_string())?;
    check_call(&mut jit, f, &[], limits)
}
