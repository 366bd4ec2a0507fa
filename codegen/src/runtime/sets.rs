//! The set algebra compiled code calls (`rt_set`, `rt_set_scalar`) on set cells
//! `[complement: 0/1, n, elements ascending...]`, results written straight into the arena.

use super::{alloc, cmp_words, RunContext, ST_NOT_SUPPORTED};
use lang::core::ir::Ty;
use std::cmp::Ordering;

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
