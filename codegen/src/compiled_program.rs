//! The program as compiled code runs it: a copy with code equations in and the passes for
//! compiled code applied, its functions too large or too deep to compile left to the
//! interpreter.

use crate::call_graph;
use crate::runtime::stack_limit;
use crate::translate::{self, Interpreted, COMPILE_MAX_NODES};
use lang::core::ir::{FunDef, Program};

/// The deepest nesting of loops compiled code takes: register allocation over nested loops
/// grows much faster than their size (400 nested `∀x∈{True}`: 48 s to compile, against
/// 0.03 s in the interpreter). Real lemmas nest a few.
const MAX_LOOP_NESTING: usize = 32;

/// Stack the recursive passes over the IR (and the translation) may take per level of
/// nesting of a body: a generous bound on their frames in release builds.
const PASS_FRAME_BYTES: u64 = 4 << 10;

/// `prog` as compiled code runs it: code equations in, then the passes for compiled code;
/// and the functions left to the interpreter. A body of more than `COMPILE_MAX_NODES` IR
/// nodes, or nested deeper than the passes can recurse on this thread's stack, is replaced
/// (in this copy only) by a hand-over before the passes, which recurse over the IR: such
/// a function is not compiled, and the cases that reach it run in the interpreter.
/// In narrowing mode (`narrowing`) code equations, the set-quantifier pass and
/// specialisation stay out:
/// they change the order in which the parts of a value are looked at, and so which hole is
/// demanded first.
pub(crate) fn compiled_program(prog: &Program, narrowing: bool) -> (Box<Program>, Vec<Interpreted>) {
    let here = 0u8;
    let room = (std::hint::black_box(&here) as *const u8 as u64).saturating_sub(stack_limit());
    let max_depth = (room / PASS_FRAME_BYTES) as usize;
    // Copied function by function: cloning a body recurses too, so those left out are not.
    let mut left_out = Vec::new();
    let funs = prog
        .funs
        .iter()
        .map(|f| {
            let (nodes, depth) = f.body.shape();
            let loops = f.body.loop_nesting();
            let why = if nodes > COMPILE_MAX_NODES {
                translate::too_large_why(nodes)
            } else if loops > MAX_LOOP_NESTING {
                format!("its loops (quantifiers, comprehensions) nest {loops} deep, more than compiled code takes ({MAX_LOOP_NESTING})")
            } else if depth > max_depth {
                format!(
                    "it is nested {depth} deep, more than this thread's stack lets compiled code take ({max_depth})"
                )
            } else {
                return f.clone();
            };
            left_out.push(Interpreted { name: f.name.clone(), nodes, why });
            FunDef {
                name: f.name.clone(),
                params: f.params.clone(),
                ret: f.ret.clone(),
                body: hand_over(),
                num_vars: f.num_vars,
            }
        })
        .collect();
    let mut prog = Box::new(Program {
        datas: prog.datas.clone(),
        funs,
        inductives: prog.inductives.clone(),
        code: prog.code.clone(),
    });
    // A code version left out leaves its function out too: it takes the hand-over body.
    if !narrowing {
        prog.apply_code_equations();
        lang::core::set_quantifiers::apply(&mut prog);
        lang::core::specialize::apply(&mut prog);
    }
    lang::core::reuse_cells::apply(&mut prog);
    (prog, left_out)
}

/// A body compiled code does not run: `translate` compiles a checking-mode call of an
/// inductive predicate as a hand-over to the interpreter (`JitOutcome::NotSupported`),
/// and no pass looks into one. It never reaches the interpreter: only the JIT's own copy
/// of the program has it.
fn hand_over() -> lang::core::ir::Expr {
    lang::core::ir::Expr::Pred(lang::core::ir::PredId(u32::MAX), Vec::new())
}

/// The functions of `prog` compiled code would leave to the interpreter as too large
/// (`COMPILE_MAX_NODES`, with the bodies inlined into them) or too deep for this thread:
/// what `Jit::interpreted` lists, without compiling (the passes and a count of nodes),
/// for `verbose` output before a JIT exists.
pub fn too_large_to_compile(prog: &Program) -> Vec<Interpreted> {
    let (prog, mut left_out) = compiled_program(prog, false);
    let calls = call_graph::analyse(&prog);
    left_out.extend(
        prog.funs
            .iter()
            .zip(&calls.compiled_size)
            .filter(|(_, n)| **n > COMPILE_MAX_NODES)
            .map(|(f, &nodes)| Interpreted { name: f.name.clone(), nodes, why: translate::too_large_why(nodes) }),
    );
    left_out
}
