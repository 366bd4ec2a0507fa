//! The runtime boundary: the context every compiled function receives, the status codes that
//! unwind a computation, and the Rust helpers compiled code calls (`builder.symbol`): the
//! fuel/deadline tick, closure application, division, and structural comparison; the set
//! algebra is in `sets`.
//!
//! Helpers never panic (a panic cannot unwind through JIT frames): failures become a status.

mod sets;

pub(crate) use sets::{
    rt_set, rt_set_scalar, EMPTY_SET, SET_COMPL, SET_DIFF, SET_EMPTY, SET_EQ, SET_INSERT, SET_INTER, SET_LE, SET_LT,
    SET_MEMBER, SET_TO_LIST, SET_UNION, SET_UNIV,
};

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

/// A compiled level loop (`translate::ProgramCompiler::define_level_loop`): `(ctx, rows, n, width, stop_on)`
/// runs the function on each of the `n` rows of `width` argument words in turn, and returns
/// the index of the first case whose result is `stop_on` or that set a status, or `n`.
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
    for i in 0..n {
        if cmp_words(prog, x, *cell.add(6 + 2 * i), ty) == Ordering::Equal {
            return *cell.add(7 + 2 * i);
        }
    }
    *cell.add(5)
}

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

/// Structural comparison of two words of type `compared_types[ty]` (no functions or sets inside):
/// -1, 0 or 1. Iterative, so long lists do not grow the stack.
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
