//! What the call graph tells `translate`: which compiled entries carry the guards (fuel,
//! depth, stack pointer), and which functions are only ever entered from outside.
//!
//! Only recursion can run forever or grow the stack without bound, so only the places every
//! recursion passes through need the guards:
//! - a function on a cycle of known calls (`Expr::Call`), not counting a self call in tail
//!   position, nor one in tail position modulo constructors (`x # f xs`, `cons_to_self`):
//!   `translate` compiles those as jumps back to the top of the function, and the jump
//!   spends fuel instead;
//! - every closure entry that can be reached through a closure value: λs, and the entries
//!   of functions used as values (`FunRef`). Any cycle through an unknown call passes one.
//!
//! A function off every cycle runs a bounded number of steps before it returns or reaches a
//! guarded entry. Chains of such functions are cut every `MAX_UNGUARDED_CHAIN` calls by a
//! guarded one, so that the frames between two stack checks stay within the stack margin
//! (`runtime::STACK_MARGIN`) whatever the program.

use lang::core::ir::{Expr, FunId, Program};

/// Longest chain of nested calls to unguarded functions.
const MAX_UNGUARDED_CHAIN: u32 = 16;

/// The facts for one program, indexed by `FunId`.
pub(crate) struct CallGraph {
    /// The function's own entry checks fuel, depth and stack.
    pub guarded: Vec<bool>,
    /// Its closure entry does (the function is used as a value).
    pub guarded_closure_entry: Vec<bool>,
    /// Some function calls it by name (its own self calls in tail position aside). One that
    /// no function calls is entered only through its closure entry (from Rust, or as a
    /// value), so `translate` compiles its body as that entry, without a separate function.
    pub called: Vec<bool>,
    /// Calls of it are translated as its body in place: it is unguarded (so not recursive,
    /// apart from self calls in tail position, which stay loops), small, and has no λ.
    pub inlined: Vec<bool>,
    /// It calls itself in tail position modulo constructors (`cons_to_self`).
    pub builds_to_self: Vec<bool>,
    /// Its body is a loop: it calls itself in tail position, or modulo constructors.
    pub loops: Vec<bool>,
    /// The IR nodes `translate` compiles for its body: its own and those of the bodies
    /// inlined into it, each copy counted (saturating). Compile time grows with it, and
    /// faster than linearly in Cranelift's optimiser, so it decides how a function is
    /// compiled (`translate::ProgramCompiler::define_function`).
    pub compiled_size: Vec<usize>,
}

/// Bodies of at most this many IR nodes are inlined.
const MAX_INLINED_SIZE: usize = 40;

pub(crate) fn analyse(prog: &Program) -> CallGraph {
    let n = prog.funs.len();
    let mut callees = vec![Vec::new(); n];
    let mut closure_entry = vec![false; n];
    let mut from_lambdas = Vec::new();
    let mut builds_to_self = vec![false; n];
    let mut loops = vec![false; n];
    for (i, f) in prog.funs.iter().enumerate() {
        let mut uses = BodyUses {
            me: FunId(i as u32),
            calls: &mut callees[i],
            from_lambdas: &mut from_lambdas,
            as_value: &mut closure_entry,
            builds_to_self: false,
            loops: false,
        };
        uses.walk(&f.body, true);
        builds_to_self[i] = uses.builds_to_self;
        loops[i] = uses.loops || uses.builds_to_self;
        callees[i].sort_unstable_by_key(|g| g.0);
        callees[i].dedup();
    }
    let mut guarded: Vec<bool> = (0..n).map(|i| on_cycle(&callees, i)).collect();
    // Heights of unguarded chains: the unguarded functions form a DAG, so memoised DFS ends.
    let mut height: Vec<Option<u32>> = vec![None; n];
    for i in 0..n {
        chain_height(i, &callees, &mut guarded, &mut height);
    }
    let mut called = vec![false; n];
    for g in callees.iter().flatten().chain(&from_lambdas) {
        called[g.0 as usize] = true;
    }
    // A λ in an inlined body would be compiled once per copy, and one that calls the
    // function back would make a new copy of itself, without end: bodies with λs are not
    // inlined.
    let inlined: Vec<bool> = (0..n)
        .map(|i| {
            let body = &prog.funs[i].body;
            !guarded[i]
                && body.count(&|_| true) <= MAX_INLINED_SIZE
                && body.count(&|e| matches!(e, Expr::Lambda(..))) == 0
        })
        .collect();
    let mut compiled_size = vec![None; n];
    for i in 0..n {
        size_with_inlined(prog, i, &inlined, &mut compiled_size);
    }
    let compiled_size = compiled_size.into_iter().map(|s| s.unwrap_or(0)).collect();
    CallGraph { guarded, guarded_closure_entry: closure_entry, called, inlined, builds_to_self, loops, compiled_size }
}

/// `CallGraph::compiled_size` of function `f`, memoised in `memo`. Inlined functions are
/// unguarded, so off every cycle: the recursion follows a DAG, at most
/// `MAX_UNGUARDED_CHAIN` deep.
fn size_with_inlined(prog: &Program, f: usize, inlined: &[bool], memo: &mut [Option<usize>]) -> usize {
    if let Some(s) = memo[f] {
        return s;
    }
    fn walk(e: &Expr, me: usize, sites: &mut Vec<usize>) -> usize {
        if let Expr::Call(g, _) = e {
            if g.0 as usize != me {
                sites.push(g.0 as usize);
            }
        }
        let mut n = 1usize;
        e.for_each_child(&mut |c, _| n = n.saturating_add(walk(c, me, sites)));
        n
    }
    let mut sites = Vec::new();
    let mut size = walk(&prog.funs[f].body, f, &mut sites);
    for g in sites {
        if inlined[g] {
            size = size.saturating_add(size_with_inlined(prog, g, inlined, memo));
        }
    }
    memo[f] = Some(size);
    size
}

/// Known calls and function values of one body. Calls in λ bodies are kept apart: a λ is
/// its own guarded entry, so they do not make cycles, but they do call.
struct BodyUses<'a> {
    me: FunId,
    calls: &'a mut Vec<FunId>,
    from_lambdas: &'a mut Vec<FunId>,
    as_value: &'a mut [bool],
    builds_to_self: bool,
    /// A self call in tail position.
    loops: bool,
}

impl BodyUses<'_> {
    /// `tail`: `e` is in tail position, where `translate::FunctionTranslator::translate_tail`
    /// turns a self call into a jump.
    fn walk(&mut self, e: &Expr, tail: bool) {
        match e {
            Expr::Call(f, args) => {
                if tail && *f == self.me {
                    self.loops = true;
                } else {
                    self.calls.push(*f);
                }
                args.iter().for_each(|a| self.walk(a, false));
            }
            Expr::Ctor(_, args) if tail && cons_to_self(e, self.me) => {
                self.builds_to_self = true;
                let mut cell = args;
                loop {
                    let (last, fields) = cell.split_last().expect("cons_to_self: a field");
                    fields.iter().for_each(|a| self.walk(a, false));
                    match last {
                        Expr::Ctor(_, inner) => cell = inner,
                        Expr::Call(_, cargs) => {
                            cargs.iter().for_each(|a| self.walk(a, false));
                            break;
                        }
                        _ => unreachable!("cons_to_self ends in a self call"),
                    }
                }
            }
            Expr::FunRef(f) => self.as_value[f.0 as usize] = true,
            Expr::Lambda(..) => self.lambda_uses(e),
            Expr::If(c, t, f) => {
                self.walk(c, false);
                self.walk(t, tail);
                self.walk(f, tail);
            }
            Expr::Let(_, _, rhs, body) => {
                self.walk(rhs, false);
                self.walk(body, tail);
            }
            Expr::Case { scrut, alts, default, .. } => {
                self.walk(scrut, false);
                alts.iter().for_each(|a| self.walk(&a.body, tail));
                default.iter().for_each(|d| self.walk(d, tail));
            }
            Expr::NatCase { scrut, zero, succ, .. } => {
                self.walk(scrut, false);
                self.walk(zero, tail);
                self.walk(succ, tail);
            }
            _ => e.for_each_child(&mut |c, _| self.walk(c, false)),
        }
    }

    /// Inside a λ calls start from a guarded entry: they are recorded as callers only.
    fn lambda_uses(&mut self, e: &Expr) {
        match e {
            Expr::FunRef(f) => self.as_value[f.0 as usize] = true,
            Expr::Call(f, _) => self.from_lambdas.push(*f),
            _ => {}
        }
        e.for_each_child(&mut |c, _| self.lambda_uses(c));
    }
}

/// Whether `start` reaches itself through `callees`.
fn on_cycle(callees: &[Vec<FunId>], start: usize) -> bool {
    let mut seen = vec![false; callees.len()];
    let mut work: Vec<usize> = callees[start].iter().map(|g| g.0 as usize).collect();
    while let Some(f) = work.pop() {
        if f == start {
            return true;
        }
        if !std::mem::replace(&mut seen[f], true) {
            work.extend(callees[f].iter().map(|g| g.0 as usize));
        }
    }
    false
}

/// The number of unguarded frames `f` can put on the stack above the last guarded one (0 for
/// a guarded function); guards `f` when that would pass `MAX_UNGUARDED_CHAIN`.
fn chain_height(f: usize, callees: &[Vec<FunId>], entry: &mut [bool], height: &mut [Option<u32>]) -> u32 {
    if entry[f] {
        return 0;
    }
    if let Some(h) = height[f] {
        return h;
    }
    let mut below = 0;
    for g in &callees[f] {
        below = below.max(chain_height(g.0 as usize, callees, entry, height));
    }
    let h = if below + 1 > MAX_UNGUARDED_CHAIN {
        entry[f] = true;
        0
    } else {
        below + 1
    };
    height[f] = Some(h);
    h
}

/// `e` is `C a1 .. an` whose last field is a call of `me` or, again, such a cell: in tail
/// position, compiled code builds the cells and loops, the call writing its value into the
/// last field (tail recursion modulo constructors, as for `x # append xs ys`).
pub(crate) fn cons_to_self(e: &Expr, me: FunId) -> bool {
    match e {
        Expr::Ctor(_, args) => match args.last() {
            Some(Expr::Call(f, _)) => *f == me,
            Some(inner) => cons_to_self(inner, me),
            None => false,
        },
        _ => false,
    }
}
