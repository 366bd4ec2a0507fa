//! Conversion between interpreter `Value`s and JIT words (see the crate docs for the layout).
//! Both directions are iterative, so long lists convert on any stack.

use crate::holes;
use crate::runtime::{alloc, rt_map_entry, rt_pap_entry, RunContext};
use crate::translate::compares_structurally;
use crate::{Jit, JitOutcome};
use lang::core::ir::{Program, Ty};
use lang::value::{Closure, Int, SetValue, Value};
use smallvec::SmallVec;
use std::collections::HashMap;

/// A JIT value: one 64-bit word, interpreted according to its IR type.
pub type Word = u64;

/// Cells already built for the fields of constructor values (by the address of the shared
/// fields), so that values sharing structure share their cells: a table of lists whose tails
/// are the lists of the table before costs one cell per list. Valid while those cells stay
/// in the arena and the values stay alive.
#[derive(Default)]
pub struct SharedCells(rustc_hash::FxHashMap<usize, Word>);

impl SharedCells {
    /// The cell of the fields at address `key`, if built.
    pub(crate) fn get(&self, key: usize) -> Option<Word> {
        self.0.get(&key).copied()
    }
}

/// A step of building a value's word (`word_of`), on an explicit stack.
enum EncodeStep<'a> {
    Visit(&'a Value, &'a Ty),
    /// Pops the last `n` words and stores them in a cell with this header; remembers it
    /// under the fields' address (`SharedCells`).
    Cell(u64, usize, usize),
    /// Pops the last `n` words: arguments of a partial application of the closure below them.
    Pap(usize, usize),
    /// Pops `n` elements into a set cell (complement flag first).
    Set(bool, usize),
    /// Pops a default and `n` key/value pairs: a finite map with keys of `compared_types[k]`.
    Map(u64, usize),
}

/// The header word of a constructor cell: its tag, and its number of fields from bit 32.
pub(crate) fn cell_header(tag: u32, fields: usize) -> Word {
    u64::from(tag) | ((fields as u64) << 32)
}

/// The immediate word of nullary constructor `tag`.
pub(crate) fn nullary_word(tag: u32) -> Word {
    (u64::from(tag) << 1) | 1
}

/// The word of `v` when it is immediate (a truth value, a number within 64 bits and, for
/// partial words, outside the range of holes, a nullary constructor); `None` for a cell.
pub(crate) fn immediate_word(v: &Value, ty: &Ty, partial: bool) -> Option<Word> {
    match (v, ty) {
        (Value::Bool(b), _) => Some(*b as u64),
        (Value::Int(Int::Small(i)), _) if !(partial && holes::int_collides(*i)) => Some(*i as u64),
        (Value::Ctor(tag, fields), Ty::Data(_)) if fields.is_empty() => Some(nullary_word(*tag)),
        _ => None,
    }
}

pub(crate) fn word_of(
    jit: &mut Jit,
    v: &Value,
    ty: &Ty,
    mut shared: Option<&mut SharedCells>,
) -> Result<Word, JitOutcome> {
    let partial = jit.ctx.partial;
    // An immediate word needs no work list (a test case's numbers, truth values, nullary
    // constructors: this runs for every variable of every case the testers build as values).
    if let Some(w) = immediate_word(v, ty, partial) {
        return Ok(w);
    }
    let prog: *const Program = &*jit.prog;
    let prog = unsafe { &*prog };
    let ctx: *mut RunContext = &mut *jit.ctx;
    let mut out: SmallVec<[Word; 32]> = SmallVec::new();
    let mut work: SmallVec<[EncodeStep; 32]> = smallvec::smallvec![EncodeStep::Visit(v, ty)];
    let oom = || JitOutcome::OutOfMemory;
    while let Some(t) = work.pop() {
        match t {
            EncodeStep::Visit(v, ty) => match (v, ty) {
                (Value::Bool(b), _) => out.push(*b as u64),
                // In narrowing mode an `int` in the range of partial words is left to the
                // interpreter, like a number past 64 bits.
                (Value::Int(Int::Small(i)), _) if partial && holes::int_collides(*i) => {
                    return Err(JitOutcome::Overflow)
                }
                (Value::Int(Int::Small(i)), _) => out.push(*i as u64),
                (Value::Hole(h), _) if partial => out.push(holes::hole_word(*h).ok_or(JitOutcome::Overflow)?),
                (Value::Stuck(d), _) if partial => out.push(holes::stuck_word(*d)),
                (Value::Int(Int::Big(_)), _) => return Err(JitOutcome::Overflow),
                (Value::Ctor(tag, fields), Ty::Data(d)) => {
                    let key = fields.as_ptr() as usize;
                    if fields.is_empty() {
                        out.push(nullary_word(*tag));
                    } else if let Some(w) = shared.as_ref().and_then(|m| m.0.get(&key)) {
                        out.push(*w);
                    } else {
                        let ftys = &prog.data(*d).ctors[*tag as usize].fields;
                        work.push(EncodeStep::Cell(cell_header(*tag, fields.len()), fields.len(), key));
                        for (f, t) in fields.iter().zip(ftys).rev() {
                            work.push(EncodeStep::Visit(f, t));
                        }
                    }
                }
                (Value::Set(s), Ty::Set(e)) => {
                    work.push(EncodeStep::Set(s.is_complement(), s.elems().len()));
                    for x in s.elems().iter().rev() {
                        work.push(EncodeStep::Visit(x, e));
                    }
                }
                (Value::Fun(c), _) => match &**c {
                    Closure::Partial { fun, args } => {
                        let fd = prog.fun(*fun);
                        let arity = fd.params.len();
                        let p = unsafe { alloc(ctx, 3) }.ok_or_else(oom)?;
                        unsafe {
                            *p = jit.entries[fun.0 as usize].code as usize as u64;
                            *p.add(1) = arity as u64;
                            *p.add(2) = 0;
                        }
                        out.push(p as u64);
                        if !args.is_empty() {
                            work.push(EncodeStep::Pap(arity, args.len()));
                            for (a, (_, t)) in args.iter().zip(&fd.params).rev() {
                                work.push(EncodeStep::Visit(a, t));
                            }
                        }
                    }
                    Closure::Map { default, entries } => {
                        let Ty::Fun(a, b) = ty else { return Err(JitOutcome::NotSupported) };
                        if !compares_structurally(prog, a) {
                            return Err(JitOutcome::NotSupported);
                        }
                        let k = match jit.compared_types.iter().position(|t| *t == **a) {
                            Some(k) => k,
                            None => {
                                jit.compared_types.push((**a).clone());
                                jit.compared_types.len() - 1
                            }
                        };
                        work.push(EncodeStep::Map(k as u64, entries.len()));
                        for (key, val) in entries.iter().rev() {
                            work.push(EncodeStep::Visit(val, b));
                            work.push(EncodeStep::Visit(key, a));
                        }
                        work.push(EncodeStep::Visit(default, b));
                    }
                    _ => return Err(JitOutcome::NotSupported),
                },
                _ => return Err(JitOutcome::NotSupported),
            },
            EncodeStep::Cell(hdr, n, key) => {
                let p = unsafe { alloc(ctx, 1 + n as u64) }.ok_or_else(oom)?;
                let at = out.len() - n;
                unsafe {
                    *p = hdr;
                    std::ptr::copy_nonoverlapping(out[at..].as_ptr(), p.add(1), n);
                }
                out.truncate(at);
                out.push(p as u64);
                if let Some(m) = shared.as_mut() {
                    m.0.insert(key, p as u64);
                }
            }
            EncodeStep::Set(compl, n) => {
                let at = out.len() - n;
                let p = unsafe { alloc(ctx, 2 + n as u64) }.ok_or_else(oom)?;
                unsafe {
                    *p = compl as u64;
                    *p.add(1) = n as u64;
                    std::ptr::copy_nonoverlapping(out[at..].as_ptr(), p.add(2), n);
                }
                out.truncate(at);
                out.push(p as u64);
            }
            EncodeStep::Map(k, n) => {
                let words: Vec<Word> = out.drain(out.len() - (1 + 2 * n)..).collect();
                let p = unsafe { alloc(ctx, 5 + words.len() as u64) }.ok_or_else(oom)?;
                unsafe {
                    *p = rt_map_entry as *const () as u64;
                    *p.add(1) = 1;
                    *p.add(2) = 2 + words.len() as u64;
                    *p.add(3) = k;
                    *p.add(4) = n as u64;
                    for (i, w) in words.iter().enumerate() {
                        *p.add(5 + i) = *w;
                    }
                }
                out.push(p as u64);
            }
            EncodeStep::Pap(arity, n) => {
                let args: Vec<Word> = out.drain(out.len() - n..).collect();
                let inner = out.pop().expect("closure below its arguments");
                let p = unsafe { alloc(ctx, 5 + n as u64) }.ok_or_else(oom)?;
                unsafe {
                    *p = rt_pap_entry as *const () as u64;
                    *p.add(1) = (arity - n) as u64;
                    *p.add(2) = 2 + n as u64;
                    *p.add(3) = inner;
                    *p.add(4) = n as u64;
                    for (i, a) in args.iter().enumerate() {
                        *p.add(5 + i) = *a;
                    }
                }
                out.push(p as u64);
            }
        }
    }
    Ok(out.pop().expect("one value"))
}

/// The universe of finite type `ty`, at most `max` values, as a set cell outside the arena
/// (its address and size): every value in the interpreter's ascending order, which is
/// compiled code's order of set elements, its cells and the set's kept in `statics`, which
/// must live as long as code that reads them. `None` when the type is not finite, too big,
/// or has a value that is not a constant of this layout (a set, a function).
pub(crate) fn static_universe(
    prog: &Program,
    ty: &Ty,
    max: usize,
    statics: &mut Vec<Box<[u64]>>,
) -> Option<(u64, usize)> {
    let values = lang::value::enumerate(prog, ty).filter(|vs| vs.len() <= max)?;
    let mut words = vec![0, values.len() as u64];
    for v in &values {
        words.push(static_word(prog, v, ty, statics)?);
    }
    Some((keep_static(words, statics), values.len()))
}

/// `v` of type `ty` as a word whose cells are kept in `statics` (`static_universe`).
fn static_word(prog: &Program, v: &Value, ty: &Ty, statics: &mut Vec<Box<[u64]>>) -> Option<Word> {
    if let Some(w) = immediate_word(v, ty, false) {
        return Some(w);
    }
    match (v, ty) {
        (Value::Ctor(tag, fields), Ty::Data(d)) => {
            let ftys = &prog.data(*d).ctors.get(*tag as usize)?.fields;
            let mut words = vec![cell_header(*tag, fields.len())];
            for (f, t) in fields.iter().zip(ftys) {
                words.push(static_word(prog, f, t, statics)?);
            }
            Some(keep_static(words, statics))
        }
        _ => None,
    }
}

/// Keeps `words` as a cell in `statics`: its address.
fn keep_static(words: Vec<u64>, statics: &mut Vec<Box<[u64]>>) -> Word {
    let cell = words.into_boxed_slice();
    let addr = cell.as_ptr() as u64;
    statics.push(cell);
    addr
}

/// A step of reading a word back as a value (`value_of`), on an explicit stack.
enum DecodeStep<'a> {
    Visit(Word, &'a Ty),
    /// Build the cell at this address from the last `n` values.
    Build(u32, usize, Word),
    BuildSet(bool, usize, Word),
}

/// The value of word `w` of type `ty`; with `partial` (narrowing mode), partial words are
/// holes and stuck computations (`holes`). A cell reached twice is decoded once and its
/// value shared, as in the arena: a tree whose subtrees are shared (`let x = t in N x x`)
/// is exponentially larger unshared.
pub(crate) fn value_of(prog: &Program, w: Word, ty: &Ty, partial: bool) -> Result<Value, JitOutcome> {
    // An immediate word is read without work lists or the table of decoded cells (a
    // boolean check's answer, a number: most words read back).
    if !(partial && holes::is_partial(w, ty)) {
        match ty {
            Ty::Bool => return Ok(Value::Bool(w != 0)),
            Ty::Nat | Ty::Int => return Ok(Value::int(w as i64)),
            Ty::Data(_) if w & 1 == 1 => return Ok(Value::nullary((w >> 1) as u32)),
            _ => {}
        }
    }
    let mut out: Vec<Value> = Vec::new();
    let mut decoded: HashMap<Word, Value> = HashMap::new();
    let mut work = vec![DecodeStep::Visit(w, ty)];
    while let Some(t) = work.pop() {
        match t {
            DecodeStep::Visit(w, Ty::Data(_) | Ty::Set(_)) if decoded.contains_key(&w) => out.push(decoded[&w].clone()),
            DecodeStep::Visit(w, ty) if partial && holes::is_partial(w, ty) => out.push(holes::value_of_partial(w)),
            DecodeStep::Visit(w, ty) => match ty {
                Ty::Bool => out.push(Value::Bool(w != 0)),
                Ty::Nat | Ty::Int => out.push(Value::int(w as i64)),
                Ty::Data(d) => {
                    if w & 1 == 1 {
                        out.push(Value::nullary((w >> 1) as u32));
                    } else {
                        let tag = unsafe { *(w as *const u32) };
                        let ftys = &prog.data(*d).ctors[tag as usize].fields;
                        work.push(DecodeStep::Build(tag, ftys.len(), w));
                        for (i, t) in ftys.iter().enumerate().rev() {
                            let f = unsafe { *(w as *const u64).add(1 + i) };
                            work.push(DecodeStep::Visit(f, t));
                        }
                    }
                }
                Ty::Set(e) => {
                    let p = w as *const u64;
                    let (compl, n) = unsafe { (*p == 1, *p.add(1) as usize) };
                    work.push(DecodeStep::BuildSet(compl, n, w));
                    for i in (0..n).rev() {
                        work.push(DecodeStep::Visit(unsafe { *p.add(2 + i) }, e));
                    }
                }
                Ty::Fun(..) => return Err(JitOutcome::NotSupported),
            },
            DecodeStep::BuildSet(compl, n, at) => {
                let elems = out.split_off(out.len() - n);
                let v = Value::set(if compl { SetValue::cofinite(elems) } else { SetValue::finite(elems) });
                decoded.insert(at, v.clone());
                out.push(v);
            }
            DecodeStep::Build(tag, n, at) => {
                let fields = out.split_off(out.len() - n);
                let v = Value::ctor(tag, fields);
                decoded.insert(at, v.clone());
                out.push(v);
            }
        }
    }
    Ok(out.pop().expect("one value"))
}
