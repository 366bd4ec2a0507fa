//! The arena compiled code allocates in, seen from Rust: its fill level (reset, marks), and
//! values built in it or read back from it (`layout` converts interpreter values).

use super::Jit;
use crate::layout::{self, SharedCells, Word};
use crate::runtime::{alloc, RunContext};
use crate::JitOutcome;
use lang::core::ir::Ty;
use lang::value::Value;

/// A fill level of a `Jit`'s arena (`Jit::mark`).
#[derive(Clone, Copy, Debug)]
pub struct ArenaMark(u64);

/// Default arena size in words (32 MiB).
pub const DEFAULT_ARENA_WORDS: usize = 4 << 20;

/// At most this many values' cells kept by `Jit::call` (then they are built again).
const KEPT_VALUES_MAX: usize = 1 << 16;

/// The cells of the values converted by `Jit::word_of_kept` (`Jit::call`'s arguments among
/// them), kept at the bottom of the arena from one call to the next: a search that calls
/// functions on the same values many times (the smart enumerators' goals, on each subtree
/// they build; a conclusion checked on one tree with each key) converts each value once.
/// Valid while the arena is not released below `top`: `reset`, and `release` to below it,
/// forget them.
#[derive(Default)]
pub(crate) struct KeptInputs {
    shared: SharedCells,
    /// The values converted, alive so that the addresses of their fields, which key
    /// `shared`, are not reused by other values.
    alive: Vec<Value>,
    /// The arena's fill level after the kept cells; 0 when none are kept.
    top: u64,
}

impl KeptInputs {
    fn forget(&mut self) {
        if self.top != 0 {
            self.shared = SharedCells::default();
            self.alive.clear();
            self.top = 0;
        }
    }
}

impl Jit {
    /// Frees everything allocated in the arena: words from earlier runs become invalid.
    pub fn reset(&mut self) {
        let start = self.arena.as_mut_ptr() as u64;
        self.ctx.heap = start;
        self.ctx.heap_end = start + 8 * self.arena.len() as u64;
        self.kept.forget();
    }

    /// Frees everything built since the cells kept by `word_of_kept`, keeping them; or the
    /// whole arena when none are kept or they take too much of it. Call it before the
    /// `word_of_kept` calls of a run (words built otherwise become invalid).
    pub fn free_to_kept(&mut self) {
        let start = self.arena.as_ptr() as u64;
        let kept_words = (self.kept.top.saturating_sub(start) / 8) as usize;
        if self.kept.top == 0 || self.kept.alive.len() >= KEPT_VALUES_MAX || kept_words > self.arena.len() / 4 {
            self.reset();
            self.kept.top = self.ctx.heap;
        } else {
            self.ctx.heap = self.kept.top;
        }
    }

    /// `v` as a word, its cells kept for the next runs (`KeptInputs`): the same value (the
    /// same shared fields) converted again is not built again. After a failure the cells
    /// finished on the way stay kept, and what was built stays allocated: words built
    /// before for the same run (another variable of the case) remain valid.
    pub fn word_of_kept(&mut self, v: &Value, ty: &Ty) -> Result<Word, JitOutcome> {
        if let Some(w) = layout::immediate_word(v, ty, self.ctx.partial) {
            return Ok(w);
        }
        if let Value::Ctor(_, fields) = v {
            if let Some(w) = self.kept.shared.get(fields.as_ptr() as usize) {
                return Ok(w);
            }
        }
        let mut shared = std::mem::take(&mut self.kept.shared);
        let w = self.word_of_shared(v, ty, &mut shared);
        self.kept.shared = shared;
        // Kept alive even after a failure: the cells its parts got are in `shared`.
        self.kept.alive.push(v.clone());
        self.kept.top = self.ctx.heap;
        w
    }

    /// The arena's current fill level: `release` to it frees everything allocated after,
    /// so inputs built once can be kept across many runs.
    pub fn mark(&self) -> ArenaMark {
        ArenaMark(self.ctx.heap)
    }

    /// Words still free in the arena.
    pub fn arena_room(&self) -> usize {
        (self.ctx.heap_end.saturating_sub(self.ctx.heap) / 8) as usize
    }

    /// The arena's size in words.
    pub fn arena_words(&self) -> usize {
        self.arena.len()
    }

    /// Frees everything allocated since `m` was taken (words from after it become invalid).
    pub fn release(&mut self, m: ArenaMark) {
        self.ctx.heap = m.0;
        if m.0 < self.kept.top {
            self.kept.forget();
        }
    }

    /// Builds `v` (of type `ty`) in the arena. Numbers past 64 bits give `Overflow`; of the
    /// function values, partial applications of top-level functions and finite maps
    /// (`Value::fun_map`, keys without functions or sets inside) are built, others give
    /// `NotSupported`.
    pub fn word_of(&mut self, v: &Value, ty: &Ty) -> Result<Word, JitOutcome> {
        let w = layout::word_of(self, v, ty, None);
        self.take_status().and(w)
    }

    /// `word_of`, reusing the cells built for fields shared with values converted before
    /// through the same `shared` (see `SharedCells`: the arena must not have been released
    /// below them, and those values must still be alive).
    pub fn word_of_shared(&mut self, v: &Value, ty: &Ty, shared: &mut SharedCells) -> Result<Word, JitOutcome> {
        let w = layout::word_of(self, v, ty, Some(shared));
        self.take_status().and(w)
    }

    /// Builds constructor `tag` applied to `fields` (words of the constructor's field types)
    /// in the arena: the layout `word_of` gives the same value, without an interpreter value
    /// in between (generators use it to build test data directly).
    #[inline]
    pub fn ctor_word(&mut self, tag: u32, fields: &[Word]) -> Result<Word, JitOutcome> {
        if fields.is_empty() {
            return Ok(layout::nullary_word(tag));
        }
        let ctx: *mut RunContext = &mut *self.ctx;
        // SAFETY: `ctx` is this JIT's context; the cell is inside its arena.
        let p = unsafe { alloc(ctx, 1 + fields.len() as u64) };
        let Some(p) = p else {
            self.ctx.status = 0;
            return Err(JitOutcome::OutOfMemory);
        };
        // Small cells word by word: a loop here becomes a `memcpy` call for the two words of
        // a cons cell, which was a tenth of the random tester's time.
        unsafe {
            *p = layout::cell_header(tag, fields.len());
            match *fields {
                [a] => *p.add(1) = a,
                [a, b] => (*p.add(1), *p.add(2)) = (a, b),
                [a, b, c] => (*p.add(1), *p.add(2), *p.add(3)) = (a, b, c),
                _ => std::ptr::copy_nonoverlapping(fields.as_ptr(), p.add(1), fields.len()),
            }
        }
        Ok(p as u64)
    }

    /// The list of the numbers `elems` (`nat` or `int` words), its cons cells allocated at
    /// once and laid out in order: the layout `ctor_word` gives cell by cell.
    pub fn int_list_word(&mut self, elems: &[i64]) -> Result<Word, JitOutcome> {
        let mut it = elems.iter();
        self.int_list_with(elems.len(), || it.next().copied().unwrap_or(0))
    }

    /// `int_list_word` of the `len` numbers `elem` gives, called in order and written
    /// straight into the cells (a generator draws them there without a buffer between).
    #[inline]
    pub fn int_list_with(&mut self, len: usize, mut elem: impl FnMut() -> i64) -> Result<Word, JitOutcome> {
        const NIL: Word = 1;
        if len == 0 {
            return Ok(NIL);
        }
        let ctx: *mut RunContext = &mut *self.ctx;
        // SAFETY: `ctx` is this JIT's context; the cells are inside its arena.
        let Some(p) = (unsafe { alloc(ctx, 3 * len as u64) }) else {
            self.ctx.status = 0;
            return Err(JitOutcome::OutOfMemory);
        };
        let cons = 1 | (2 << 32);
        for i in 0..len {
            let next = if i + 1 == len { NIL } else { p.wrapping_add(3 * (i + 1)) as Word };
            // SAFETY: cell `i` is the words 3i..3i+3 of the room just taken.
            unsafe { (*p.add(3 * i), *p.add(3 * i + 1), *p.add(3 * i + 2)) = (cons, elem() as Word, next) };
        }
        Ok(p as Word)
    }

    /// Narrowing mode (`Jit::narrowing`): the word of hole `h`, `Suc^h.suc` of the hole for
    /// a `nat` (`Overflow` past the `Suc`s a word holds; `NotSupported` in another mode),
    /// so partial values are built without an interpreter value in between.
    pub fn hole_word(&self, h: lang::value::Hole) -> Result<Word, JitOutcome> {
        if !self.ctx.partial {
            return Err(JitOutcome::NotSupported);
        }
        crate::holes::hole_word(h).ok_or(JitOutcome::Overflow)
    }

    /// Overwrites field `field` of `cell`, a constructor cell built in this arena (by
    /// `ctor_word`) and not released since: narrowing keeps a partial value's cells from
    /// one case to the next and refines a hole by writing its refinement into the field
    /// that held it. `false`, writing nothing, when that field is not a word of the arena
    /// below its fill level.
    pub fn set_field(&mut self, cell: Word, field: usize, w: Word) -> bool {
        let start = self.arena.as_ptr() as u64;
        let addr = cell.wrapping_add(8 * (1 + field as u64));
        if cell < start || !cell.is_multiple_of(8) || addr.saturating_add(8) > self.ctx.heap {
            return false;
        }
        self.arena[((addr - start) / 8) as usize] = w;
        true
    }

    /// Reads a word of type `ty` back as an interpreter value (`NotSupported` for functions).
    pub fn value_of(&self, w: Word, ty: &Ty) -> Result<Value, JitOutcome> {
        layout::value_of(&self.prog, w, ty, self.ctx.partial)
    }
}
