//! The runtime boundary: the context every compiled function receives, the status codes that
//! unwind a computation, and the Rust helpers compiled code calls (`builder.symbol`): the
//! fuel/deadline tick, closure application, division, and structural comparison; and the
//! set algebra on set cells.
//!
//! Helpers never panic (a panic cannot unwind through JIT frames): failures become a status.

use crate::holes;
use lang::core::ir::{Program, Ty};
use std::cmp::Ordering;
use std::time::Instant;

/// Status codes written to `RunContext::status`; 0 means "running normally".
pub(crate) const ST_UNDEFINED: i64 = 1;
pub(crate) const ST_OUT_OF_FUEL: i64 = 2;
pub(crate) const ST_TOO_DEEP: i64 = 3;
pub(crate) const ST_TIMEOUT: i64 = 4;
pub(crate) const ST_OUT_OF_MEMORY: i64 = 5;
pub(crate) const ST_OVERFLOW: i64 = 6;
pub(crate) const ST_NOT_SUPPORTED: i64 = 7;
/// The machine stack ran low (as opposed to the depth limit): `Jit::run` retries on a big stack.
pub(crate) const ST_STACK: i64 = 8;
/// Narrowing mode (`crate::holes`): evaluation needs to know more of a partial value;
/// `RunContext::detail` holds the demand word.
pub(crate) const ST_REFINE: i64 = 9;

/// Fuel handed to compiled code at a time; every chunk the deadline is checked.
pub(crate) const FUEL_CHUNK: u64 = 4096;

/// Shared between compiled code and Rust. The first fields are read and written by compiled
/// code at the fixed offsets below; the rest only by the helpers.
#[repr(C)]
pub(crate) struct RunContext {
    pub heap: u64,
    pub heap_end: u64,
    pub fuel_chunk: i64,
    pub depth: i64,
    pub max_depth: i64,
    pub status: i64,
    /// With `ST_UNDEFINED`: index into the compiled program's table of `Undef`s.
    pub detail: i64,
    /// Compiled code reports `TooDeep` when the stack pointer goes below this.
    pub stack_limit: u64,
    pub fuel_left: u64,
    pub deadline: Option<Instant>,
    pub prog: *const Program,
    pub compared_types: *const Vec<Ty>,
    /// The code was compiled in narrowing mode: words may be partial (`crate::holes`).
    pub partial: bool,
}

pub(crate) const OFF_HEAP: i32 = 0;
pub(crate) const OFF_HEAP_END: i32 = 8;
pub(crate) const OFF_FUEL: i32 = 16;
pub(crate) const OFF_DEPTH: i32 = 24;
pub(crate) const OFF_MAX_DEPTH: i32 = 32;
pub(crate) const OFF_STATUS: i32 = 40;
pub(crate) const OFF_DETAIL: i32 = 48;
pub(crate) const OFF_STACK_LIMIT: i32 = 56;
pub(crate) const OFF_FUEL_LEFT: i32 = 64;

/// Closure cells: `[code, arity, ncaptured, captured...]`; `code` has the `ClosureFn` shape.
pub(crate) type ClosureFn = unsafe extern "C" fn(*mut RunContext, u64, *const u64) -> u64;

/// A compiled level loop (`translate::ProgramCompiler::define_level_loop`):
/// `(ctx, rows, n, width, stop_on)` runs the function on each of the `n` rows of `width`
/// argument words in turn, and returns the index of the first case whose result is `stop_on`
/// or that set a status, or `n`.
pub(crate) type LevelFn = unsafe extern "C" fn(*mut RunContext, *const u64, u64, u64, u64) -> u64;

/// Called when the fuel chunk runs out: refills it or reports out of fuel; checks the
/// deadline. Returns the status.
pub(crate) unsafe extern "C" fn rt_tick(ctx: *mut RunContext) -> i64 {
    let c = &mut *ctx;
    if c.fuel_left == 0 {
        c.status = ST_OUT_OF_FUEL;
        return c.status;
    }
    // The entry that ran the chunk out is paid from the new chunk.
    let chunk = c.fuel_left.min(FUEL_CHUNK);
    c.fuel_left -= chunk;
    c.fuel_chunk = chunk as i64 - 1;
    if let Some(d) = c.deadline {
        if Instant::now() >= d {
            c.status = ST_TIMEOUT;
        }
    }
    c.status
}

/// Bump allocation of `words` words; `None` (status set) when the arena is exhausted.
#[inline]
pub(crate) unsafe fn alloc(ctx: *mut RunContext, words: u64) -> Option<*mut u64> {
    let c = &mut *ctx;
    let p = c.heap;
    let np = p + words * 8;
    if np > c.heap_end {
        c.status = ST_OUT_OF_MEMORY;
        return None;
    }
    c.heap = np;
    Some(p as *mut u64)
}

/// Applies closure `clo` to `n` arguments at `args` (curried: fewer arguments than the arity
/// build a partial application, more apply the result to the rest).
pub(crate) unsafe extern "C" fn rt_apply(ctx: *mut RunContext, mut clo: u64, mut args: *const u64, mut n: u64) -> u64 {
    loop {
        if (*ctx).partial && (clo as i64) < 0 {
            // Narrowing mode: a stuck function value (`holes`), demanded whole.
            return rt_demand(ctx, clo, holes::DemandKind::Whole as i64);
        }
        let cell = clo as *const u64;
        let code = *cell;
        let arity = *cell.add(1);
        if n < arity {
            let Some(p) = alloc(ctx, 5 + n) else { return 0 };
            *p = rt_pap_entry as *const () as u64;
            *p.add(1) = arity - n;
            *p.add(2) = 2 + n;
            *p.add(3) = clo;
            *p.add(4) = n;
            for i in 0..n as usize {
                *p.add(5 + i) = *args.add(i);
            }
            return p as u64;
        }
        let f: ClosureFn = std::mem::transmute::<u64, ClosureFn>(code);
        let r = f(ctx, clo, args);
        if (*ctx).status != 0 {
            return 0;
        }
        n -= arity;
        if n == 0 {
            return r;
        }
        args = args.add(arity as usize);
        clo = r;
    }
}

/// Entry of a partial-application cell `[pap_entry, remaining, 2 + k, inner, k, args...]`.
pub(crate) unsafe extern "C" fn rt_pap_entry(ctx: *mut RunContext, cell: u64, args: *const u64) -> u64 {
    let cell = cell as *const u64;
    let remaining = *cell.add(1) as usize;
    let inner = *cell.add(3);
    let k = *cell.add(4) as usize;
    let mut buf: Vec<u64> = Vec::with_capacity(k + remaining);
    for i in 0..k {
        buf.push(*cell.add(5 + i));
    }
    for i in 0..remaining {
        buf.push(*args.add(i));
    }
    rt_apply(ctx, inner, buf.as_ptr(), buf.len() as u64)
}

/// Entry of a finite-map closure `[map_entry, 1, 2 + 1 + 2n, key_ty, n, default, k1, v1, ...]`
/// (the interpreter's `Closure::Map`): the value of the entry whose key equals the argument,
/// else the default.
pub(crate) unsafe extern "C" fn rt_map_entry(ctx: *mut RunContext, cell: u64, args: *const u64) -> u64 {
    let c = &*ctx;
    let prog = &*c.prog;
    let tys: &Vec<Ty> = &*c.compared_types;
    let cell = cell as *const u64;
    let ty = &tys[*cell.add(3) as usize];
    let n = *cell.add(4) as usize;
    let x = *args;
    if c.partial {
        // The interpreter demands the first hole of the argument before looking it up.
        match crate::layout::value_of(prog, x, ty, true) {
            Ok(v) => {
                if let Some(h) = lang::value::first_hole(&v) {
                    let d = lang::value::Demand { hole: h, whole: true };
                    (*ctx).detail = holes::demand_word(d) as i64;
                    (*ctx).status = ST_REFINE;
                    return 0;
                }
            }
            Err(_) => {
                (*ctx).status = ST_NOT_SUPPORTED;
                return 0;
            }
        }
    }
    for i in 0..n {
        if cmp_words(prog, x, *cell.add(6 + 2 * i), ty) == Ordering::Equal {
            return *cell.add(7 + 2 * i);
        }
    }
    *cell.add(5)
}

/// Narrowing mode: compiled code met the partial word `w` where it must look inside it;
/// `kind` is a `holes::DemandKind`. Sets `ST_REFINE` with the demand.
pub(crate) unsafe extern "C" fn rt_demand(ctx: *mut RunContext, w: u64, kind: i64) -> u64 {
    let kind = match kind {
        0 => holes::DemandKind::Shape,
        1 => holes::DemandKind::Whole,
        _ => holes::DemandKind::FirstHole,
    };
    (*ctx).detail = holes::demand_on(w, kind) as i64;
    (*ctx).status = ST_REFINE;
    0
}

/// `op` (0 `=`, 1 `<`, 2 `≤`) on words of type `compared_types[ty]` that may be partial or
/// hold partial words (narrowing mode), decided as the interpreter decides it
/// (`lang::value::compare_partial`): 0 or 1, or `ST_REFINE` with the demand.
/// `op` with `PARTIAL_SCALAR` (and `PARTIAL_INT` at `int`) set: the type is scalar, decided
/// on the words without building values.
pub(crate) unsafe extern "C" fn rt_partial_compare(ctx: *mut RunContext, op: i64, a: u64, b: u64, ty: i64) -> u64 {
    if op & PARTIAL_SCALAR != 0 {
        return match holes::compare_scalar_words(op & 3, a, b, op & PARTIAL_INT != 0) {
            Ok(r) => r as u64,
            Err(d) => {
                (*ctx).detail = d as i64;
                (*ctx).status = ST_REFINE;
                0
            }
        };
    }
    let c = &*ctx;
    let prog = &*c.prog;
    let tys: &Vec<Ty> = &*c.compared_types;
    let ty = &tys[ty as usize];
    let (Ok(x), Ok(y)) = (crate::layout::value_of(prog, a, ty, true), crate::layout::value_of(prog, b, ty, true))
    else {
        (*ctx).status = ST_NOT_SUPPORTED;
        return 0;
    };
    let op = match op {
        0 => lang::value::Comparison::Eq,
        1 => lang::value::Comparison::Lt,
        _ => lang::value::Comparison::Le,
    };
    match lang::value::compare_partial(op, &x, &y) {
        Ok(r) => r as u64,
        Err(d) => {
            (*ctx).detail = holes::demand_word(d) as i64;
            (*ctx).status = ST_REFINE;
            0
        }
    }
}

/// Flags of `rt_partial_compare`'s `op`: the compared type is scalar; it is `int`.
pub(crate) const PARTIAL_SCALAR: i64 = 4;
pub(crate) const PARTIAL_INT: i64 = 8;

/// `div`/`mod` with Isabelle's conventions. `op`: 0 nat div, 1 nat mod, 2 int div, 3 int mod.
pub(crate) unsafe extern "C" fn rt_divmod(ctx: *mut RunContext, a: i64, b: i64, op: i64) -> i64 {
    match op {
        0 => {
            if b == 0 {
                0
            } else {
                a / b
            }
        }
        1 => {
            if b == 0 {
                a
            } else {
                a % b
            }
        }
        2 => {
            if b == 0 {
                0
            } else if a == i64::MIN && b == -1 {
                (*ctx).status = ST_OVERFLOW;
                0
            } else {
                let (q, r) = (a / b, a % b);
                if r != 0 && ((r < 0) != (b < 0)) {
                    q - 1
                } else {
                    q
                }
            }
        }
        _ => {
            if b == 0 {
                a
            } else if b == -1 {
                0
            } else {
                let r = a % b;
                if r != 0 && ((r < 0) != (b < 0)) {
                    r + b
                } else {
                    r
                }
            }
        }
    }
}

/// The tag of a datatype word: immediates are `(tag << 1) | 1`, cells start with the tag.
pub(crate) unsafe fn tag_of(w: u64) -> u32 {
    if w & 1 == 1 {
        (w >> 1) as u32
    } else {
        *(w as *const u32)
    }
}

/// Structural comparison of two words of type `compared_types[ty]` (no functions or sets
/// inside): -1, 0 or 1. Iterative, so long lists do not grow the stack.
pub(crate) unsafe extern "C" fn rt_cmp(ctx: *mut RunContext, a: u64, b: u64, ty: i64) -> i64 {
    let c = &*ctx;
    let prog = &*c.prog;
    let tys: &Vec<Ty> = &*c.compared_types;
    let ty = &tys[ty as usize];
    match cmp_words(prog, a, b, ty) {
        Ordering::Less => -1,
        Ordering::Equal => 0,
        Ordering::Greater => 1,
    }
}

pub(crate) unsafe fn cmp_words(prog: &Program, a: u64, b: u64, ty: &Ty) -> Ordering {
    // Depth-first, fields in order. Scalar fields before the first composite one are compared
    // on the spot and the first composite field is continued with directly, so a list
    // compares without touching `stack` (it allocates only for other shapes).
    let mut stack: Vec<(u64, u64, &Ty)> = Vec::new();
    let mut cur = Some((a, b, ty));
    loop {
        let (a, b, ty) = match cur.take() {
            Some(x) => x,
            None => match stack.pop() {
                Some(x) => x,
                None => return Ordering::Equal,
            },
        };
        match ty {
            Ty::Bool | Ty::Nat | Ty::Int => {
                let o = (a as i64).cmp(&(b as i64));
                if o != Ordering::Equal {
                    return o;
                }
            }
            Ty::Data(d) => {
                let (ta, tb) = (tag_of(a), tag_of(b));
                if ta != tb {
                    return ta.cmp(&tb);
                }
                if a & 1 == 0 && a != b {
                    let fields = &prog.data(*d).ctors[ta as usize].fields;
                    let mut next = None;
                    for (i, fty) in fields.iter().enumerate() {
                        if next.is_none() {
                            let fa = *(a as *const u64).add(1 + i);
                            let fb = *(b as *const u64).add(1 + i);
                            if matches!(fty, Ty::Bool | Ty::Nat | Ty::Int) {
                                let o = (fa as i64).cmp(&(fb as i64));
                                if o != Ordering::Equal {
                                    return o;
                                }
                            } else {
                                next = Some(i);
                            }
                        }
                    }
                    if let Some(k) = next {
                        for i in (k + 1..fields.len()).rev() {
                            let fa = *(a as *const u64).add(1 + i);
                            let fb = *(b as *const u64).add(1 + i);
                            stack.push((fa, fb, &fields[i]));
                        }
                        cur = Some((*(a as *const u64).add(1 + k), *(b as *const u64).add(1 + k), &fields[k]));
                    }
                }
            }
            Ty::Fun(..) | Ty::Set(_) => {}
        }
    }
}

/// The lowest address compiled code may push the stack to on this thread: the thread's stack
/// bottom plus a margin for the Rust helpers. Cached per thread.
pub(crate) fn stack_limit() -> u64 {
    thread_local! {
        static LIMIT: u64 = compute_stack_limit();
    }
    LIMIT.with(|l| *l)
}

const STACK_MARGIN: u64 = 256 * 1024;

#[cfg(target_os = "linux")]
fn compute_stack_limit() -> u64 {
    unsafe {
        let mut attr: libc::pthread_attr_t = std::mem::zeroed();
        if libc::pthread_getattr_np(libc::pthread_self(), &mut attr) != 0 {
            return fallback_stack_limit();
        }
        let mut addr: *mut libc::c_void = std::ptr::null_mut();
        let mut size: libc::size_t = 0;
        let ok = libc::pthread_attr_getstack(&attr, &mut addr, &mut size) == 0;
        libc::pthread_attr_destroy(&mut attr);
        if !ok || addr.is_null() {
            return fallback_stack_limit();
        }
        let low = addr as u64;
        // An unlimited main-thread stack reports an absurd size: then trust 64 MiB only.
        if size as u64 > (1 << 36) {
            let here = &size as *const _ as u64;
            return here.saturating_sub(64 << 20);
        }
        low + STACK_MARGIN
    }
}

#[cfg(not(target_os = "linux"))]
fn compute_stack_limit() -> u64 {
    fallback_stack_limit()
}

/// Without thread information: assume 1 MiB below the current frame is usable.
fn fallback_stack_limit() -> u64 {
    let here = 0u64;
    (&here as *const u64 as u64).saturating_sub(1 << 20)
}

/// The empty set cell `[0, 0]`, shared by every `{}` the compiled code builds (set cells are
/// never written after they are built, so one read-only cell serves all of them).
pub(crate) static EMPTY_SET: [u64; 2] = [0, 0];

/// Set operations (`Prim::Set*`, and `=`, `<`, `≤` at set types) on set cells
/// `[complement: 0/1, n, elements ascending...]`, the interpreter's canonical form: a finite
/// set or the complement of one. Over finite element types no complement is ever built (the
/// compiled code hands `UNIV` and `- A` over instead), so finite sets stay finite there.
/// `ty` is the `compared_types` index of the element type (no functions or sets inside).
pub(crate) unsafe extern "C" fn rt_set(ctx: *mut RunContext, op: i64, a: u64, b: u64, ty: i64) -> u64 {
    let c = &*ctx;
    let prog = &*c.prog;
    let tys: &Vec<Ty> = &*c.compared_types;
    let ty = &tys[ty as usize];
    set_op(ctx, op, a, b, |x, y| cmp_words(prog, x, y, ty))
}

/// `rt_set` for elements whose words order as `i64` (numbers, booleans, datatypes of nullary
/// constructors only, whose immediates `(tag << 1) | 1` ascend with the tag): no type walk.
pub(crate) unsafe extern "C" fn rt_set_scalar(ctx: *mut RunContext, op: i64, a: u64, b: u64) -> u64 {
    set_op(ctx, op, a, b, |x, y| (x as i64).cmp(&(y as i64)))
}

/// A set cell being filled in the arena: room for `cap` elements is taken up front, and the
/// unused tail is given back by `done` (nothing else allocates in between).
struct SetCellWriter {
    p: *mut u64,
    n: usize,
}

impl SetCellWriter {
    unsafe fn new(ctx: *mut RunContext, cap: usize) -> Option<SetCellWriter> {
        alloc(ctx, 2 + cap as u64).map(|p| SetCellWriter { p, n: 0 })
    }

    #[inline]
    unsafe fn push(&mut self, e: u64) {
        *self.p.add(2 + self.n) = e;
        self.n += 1;
    }

    unsafe fn done(self, ctx: *mut RunContext, compl: bool) -> u64 {
        *self.p = compl as u64;
        *self.p.add(1) = self.n as u64;
        (*ctx).heap = self.p.add(2 + self.n) as u64;
        self.p as u64
    }
}

/// Which elements a sorted merge keeps: those only in the left input, in both, only in the
/// right (union keeps all three, intersection the middle, difference the first).
#[derive(Clone, Copy)]
struct KeptElements {
    left_only: bool,
    both: bool,
    right_only: bool,
}

const UNION: KeptElements = KeptElements { left_only: true, both: true, right_only: true };
const INTER: KeptElements = KeptElements { left_only: false, both: true, right_only: false };
const MINUS: KeptElements = KeptElements { left_only: true, both: false, right_only: false };

/// The sorted merge of two ascending element slices into a new cell, with complement flag
/// `compl`. Shares an input cell instead when the result is known to equal it. Inlined, so
/// each call site's `keep` is a constant and its loop specialised.
#[inline(always)]
unsafe fn merge(
    ctx: *mut RunContext,
    cmp: &impl Fn(u64, u64) -> Ordering,
    (x, xs): (u64, &[u64]),
    (y, ys): (u64, &[u64]),
    keep: KeptElements,
    compl: bool,
) -> u64 {
    // `x` and `y` are the cells the slices come from (0 for a slice not in a cell), reused
    // when the other side is empty and the result is that side with the same flag.
    let flag_of = |c: u64| c != 0 && (*(c as *const u64) == 1) == compl;
    if ys.is_empty() && (keep.left_only || xs.is_empty()) && flag_of(x) {
        return x;
    }
    if xs.is_empty() && keep.right_only && flag_of(y) {
        return y;
    }
    let cap = match (keep.left_only, keep.right_only) {
        (true, true) => xs.len() + ys.len(),
        (true, false) => xs.len(),
        (false, true) => ys.len(),
        (false, false) => xs.len().min(ys.len()),
    };
    let Some(mut out) = SetCellWriter::new(ctx, cap) else { return 0 };
    let (mut i, mut j) = (0, 0);
    while i < xs.len() && j < ys.len() {
        match cmp(xs[i], ys[j]) {
            Ordering::Less => {
                if keep.left_only {
                    out.push(xs[i]);
                }
                i += 1;
            }
            Ordering::Greater => {
                if keep.right_only {
                    out.push(ys[j]);
                }
                j += 1;
            }
            Ordering::Equal => {
                if keep.both {
                    out.push(xs[i]);
                }
                i += 1;
                j += 1;
            }
        }
    }
    if keep.left_only {
        for e in &xs[i..] {
            out.push(*e);
        }
    }
    if keep.right_only {
        for e in &ys[j..] {
            out.push(*e);
        }
    }
    out.done(ctx, compl)
}

/// The set algebra of `rt_set` and `rt_set_scalar`, over an element order `cmp`. Results
/// are written straight into the arena (no intermediate buffers).
#[inline(always)]
unsafe fn set_op(ctx: *mut RunContext, op: i64, a: u64, b: u64, cmp: impl Fn(u64, u64) -> Ordering) -> u64 {
    let read = |s: u64| -> (bool, &[u64]) {
        let p = s as *const u64;
        (*p == 1, std::slice::from_raw_parts(p.add(2), *p.add(1) as usize))
    };
    let contains = |es: &[u64], x: u64| {
        // Sets are mostly small: a linear scan over the ascending elements beats bisection.
        if es.len() <= 16 {
            for e in es {
                match cmp(*e, x) {
                    Ordering::Less => {}
                    Ordering::Equal => return true,
                    Ordering::Greater => return false,
                }
            }
            false
        } else {
            es.binary_search_by(|e| cmp(*e, x)).is_ok()
        }
    };
    let subset = |(ca, xa): (bool, &[u64]), (cb, xb): (bool, &[u64])| -> bool {
        match (ca, cb) {
            (false, false) => xa.iter().all(|e| contains(xb, *e)),
            (false, true) => xa.iter().all(|e| !contains(xb, *e)),
            // The complement of a finite set over an infinite type is in no finite set.
            (true, false) => false,
            (true, true) => xb.iter().all(|e| contains(xa, *e)),
        }
    };
    let same = |(ca, xa): (bool, &[u64]), (cb, xb): (bool, &[u64])| -> bool {
        ca == cb && xa.len() == xb.len() && xa.iter().zip(xb).all(|(x, y)| cmp(*x, *y) == Ordering::Equal)
    };
    match op {
        SET_EMPTY => EMPTY_SET.as_ptr() as u64,
        SET_UNIV => match SetCellWriter::new(ctx, 0) {
            Some(out) => out.done(ctx, true),
            None => 0,
        },
        SET_INSERT => {
            let (cb, xb) = read(b);
            // Inserting what is already in (or into a complement, what is not excluded)
            // changes nothing: the cell itself is the result.
            if contains(xb, a) != cb {
                return b;
            }
            if cb {
                return merge(ctx, &cmp, (b, xb), (0, &[a]), MINUS, true);
            }
            // The common case (`set`, `tset`, `insert x {}`): one pass, no merge.
            let Some(mut out) = SetCellWriter::new(ctx, xb.len() + 1) else { return 0 };
            let at = xb.iter().position(|e| cmp(a, *e) == Ordering::Less).unwrap_or(xb.len());
            for e in &xb[..at] {
                out.push(*e);
            }
            out.push(a);
            for e in &xb[at..] {
                out.push(*e);
            }
            out.done(ctx, false)
        }
        SET_MEMBER => {
            let (cb, xb) = read(b);
            (contains(xb, a) != cb) as u64
        }
        SET_UNION | SET_INTER | SET_DIFF => {
            let ((ca, xa), (cb, xb)) = (read(a), read(b));
            // A - B = A ∩ -B.
            let (op, cb) = if op == SET_DIFF { (SET_INTER, !cb) } else { (op, cb) };
            // `merge` shares a cell only when its own flag matches the result's, so the flip
            // of `cb` above cannot make it share `b` wrongly.
            let (sa, sb) = ((a, xa), (b, xb));
            match (op, ca, cb) {
                (SET_UNION, false, false) => merge(ctx, &cmp, sa, sb, UNION, false),
                (SET_UNION, true, true) => merge(ctx, &cmp, sa, sb, INTER, true),
                (SET_UNION, false, true) => merge(ctx, &cmp, sb, sa, MINUS, true),
                (SET_UNION, true, false) => merge(ctx, &cmp, sa, sb, MINUS, true),
                (_, false, false) => merge(ctx, &cmp, sa, sb, INTER, false),
                (_, true, true) => merge(ctx, &cmp, sa, sb, UNION, true),
                (_, false, true) => merge(ctx, &cmp, sa, sb, MINUS, false),
                (_, true, false) => merge(ctx, &cmp, sb, sa, MINUS, false),
            }
        }
        SET_COMPL => {
            let (ca, xa) = read(a);
            let Some(mut out) = SetCellWriter::new(ctx, xa.len()) else { return 0 };
            for e in xa {
                out.push(*e);
            }
            out.done(ctx, !ca)
        }
        SET_TO_LIST => {
            let (ca, xa) = read(a);
            if ca {
                (*ctx).status = ST_NOT_SUPPORTED;
                return 0;
            }
            let mut list = 1u64; // Nil: tag 0, immediate
            for e in xa.iter().rev() {
                let Some(p) = alloc(ctx, 3) else { return 0 };
                *p = 1 | (2 << 32);
                *p.add(1) = *e;
                *p.add(2) = list;
                list = p as u64;
            }
            list
        }
        SET_EQ => same(read(a), read(b)) as u64,
        SET_LE => subset(read(a), read(b)) as u64,
        _ => (subset(read(a), read(b)) && !same(read(a), read(b))) as u64,
    }
}

pub(crate) const SET_EMPTY: i64 = 0;
pub(crate) const SET_UNIV: i64 = 1;
pub(crate) const SET_INSERT: i64 = 2;
pub(crate) const SET_MEMBER: i64 = 3;
pub(crate) const SET_UNION: i64 = 4;
pub(crate) const SET_INTER: i64 = 5;
pub(crate) const SET_DIFF: i64 = 6;
pub(crate) const SET_COMPL: i64 = 7;
pub(crate) const SET_TO_LIST: i64 = 8;
pub(crate) const SET_EQ: i64 = 9;
pub(crate) const SET_LE: i64 = 10;
pub(crate) const SET_LT: i64 = 11;
