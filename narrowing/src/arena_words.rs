//! The partial assignment kept as words in compiled code's arena, so that a partial case on
//! compiled code costs its parts' runs and little else: each variable's partial value is
//! built once as cells whose open fields hold hole words, and refining a hole writes its
//! refinement (a cell with holes for fields, `Suc` of a new hole, a value) into the field
//! or variable that held the hole; undoing the refinement releases the arena to where it
//! began and writes the hole back. Lazy SmallCheck refines its partial values in place the
//! same way.
//!
//! The arena is used as a stack: the cells of each refinement on the search path lie above
//! those of the refinements before it, and a case's own allocations above them all (the
//! search releases them after the case), so releasing to a refinement's mark frees exactly
//! what came after it. Both searches undo refinements last in, first out.
//!
//! The words are built at a case, from the slots, whenever they do not mirror them in the
//! evaluator's current arena (`PartialEvaluator::epoch`: after compiling, after compiled
//! code was called on values, which resets the arena, and after `clear`). Refinements on
//! the path then have their cells in that build, below every mark, where they stay until
//! `clear`: undoing one writes the hole back and frees only what came after the build.

use crate::assignment::{add_suc, Assignment, Shape};
use codegen::{ArenaMark, Jit, JitOutcome, Word};
use lang::interp::Hole;
use smallvec::SmallVec;
use std::ops::Range;

/// Where a slot's word is kept.
#[derive(Clone, Copy, Debug)]
enum Loc {
    /// The word of variable `v`.
    Var(usize),
    /// A field of a cell in the arena.
    Field { cell: Word, field: usize },
}

#[derive(Default)]
pub(crate) struct ArenaWords {
    /// The evaluator's epoch the words were built at; `None` when they mirror nothing.
    built: Option<u64>,
    /// By variable: the word of its partial value (0 for a variable not generated).
    vars: Vec<Word>,
    /// By slot: where its word is kept and the `Suc`s above it (the slots of a `Suc` chain
    /// share the word of the chain's first slot).
    locs: Vec<(Loc, u32)>,
    /// By refinement on the path, oldest first: the arena's fill level before its cells.
    marks: Vec<Option<ArenaMark>>,
}

impl ArenaWords {
    /// Forgets the words (the slots were cleared).
    pub(crate) fn clear(&mut self) {
        self.built = None;
        self.marks.clear();
    }

    /// The variables' words for a case on `jit` at evaluator epoch `epoch`, built from the
    /// slots if they do not mirror them there; `None` when a value has no word (then the
    /// case runs on interpreter values).
    pub(crate) fn words(
        &mut self,
        slots: &Assignment,
        roots: &[Option<u32>],
        jit: &mut Jit,
        epoch: u64,
    ) -> Option<&[Word]> {
        if self.built != Some(epoch) {
            self.built = None;
            jit.reset();
            self.vars.clear();
            self.vars.resize(roots.len(), 0);
            self.locs.clear();
            for (v, root) in roots.iter().enumerate() {
                if let Some(r) = root {
                    self.vars[v] = self.encode(slots, *r, Loc::Var(v), 0, jit).ok()?;
                }
            }
            let top = jit.mark();
            self.marks.iter_mut().for_each(|m| *m = Some(top));
            self.built = Some(epoch);
        }
        Some(&self.vars)
    }

    /// `slot` was just filled (`Assignment::fill`): its refinement's word replaces the hole.
    pub(crate) fn filled(&mut self, slots: &Assignment, slot: u32, jit: Option<&mut Jit>, epoch: u64) {
        let Some(jit) = jit.filter(|_| self.built == Some(epoch)) else {
            self.marks.push(None);
            return;
        };
        self.marks.push(Some(jit.mark()));
        let (loc, suc) = self.locs[slot as usize];
        match self.encode(slots, slot, loc, suc, jit) {
            Ok(w) if self.store(loc, w, jit) => {}
            _ => self.built = None,
        }
    }

    /// A cell of constructor `tag` with the holes of slots `fields` in its fields.
    fn open_cell(&mut self, tag: u32, fields: Range<u32>, jit: &mut Jit) -> Result<Word, JitOutcome> {
        let mut words: SmallVec<[Word; 8]> = SmallVec::new();
        for f in fields.clone() {
            words.push(jit.hole_word(Hole::new(f))?);
        }
        let cell = jit.ctor_word(tag, &words)?;
        for (i, f) in fields.enumerate() {
            self.set_loc(f, Loc::Field { cell, field: i }, 0);
        }
        Ok(cell)
    }

    fn set_loc(&mut self, slot: u32, loc: Loc, suc: u32) {
        let i = slot as usize;
        if i >= self.locs.len() {
            self.locs.resize(i + 1, (Loc::Var(0), 0));
        }
        self.locs[i] = (loc, suc);
    }

    /// `slot` was just opened again (`Assignment::reopen`): the hole is back.
    pub(crate) fn reopened(&mut self, slot: u32, jit: Option<&mut Jit>, epoch: u64) {
        let mark = self.marks.pop().flatten();
        let (Some(jit), Some(mark), true) = (jit, mark, self.built == Some(epoch)) else {
            self.built = None;
            return;
        };
        jit.release(mark);
        let (loc, suc) = self.locs[slot as usize];
        match jit.hole_word(Hole { id: slot, suc }) {
            Ok(w) if self.store(loc, w, jit) => {}
            _ => self.built = None,
        }
    }

    fn store(&mut self, loc: Loc, w: Word, jit: &mut Jit) -> bool {
        match loc {
            Loc::Var(v) => {
                self.vars[v] = w;
                true
            }
            Loc::Field { cell, field } => jit.set_field(cell, field, w),
        }
    }

    /// The word of the tree rooted at `slot`, whose word is kept at `loc` with `suc`
    /// `Suc`s above it, built in `jit`'s arena; records where each slot's word is kept.
    fn encode(&mut self, slots: &Assignment, slot: u32, loc: Loc, suc: u32, jit: &mut Jit) -> Result<Word, JitOutcome> {
        self.set_loc(slot, loc, suc);
        match slots.shape(slot).ok_or(JitOutcome::NotSupported)? {
            Shape::Open => jit.hole_word(Hole { id: slot, suc }),
            Shape::Suc(next) => self.encode(slots, next, loc, suc + 1, jit),
            Shape::Known(v, ty) if suc > 0 => jit.word_of(&add_suc(v, suc), ty),
            Shape::Known(v, ty) => jit.word_of(v, ty),
            Shape::Ctor(tag, fields) => {
                // The cell first, holes in its fields, so that their words know where they
                // are kept; fields already refined (a rebuild) are written in after. A
                // refinement's fields are all open: its cell is built in one go.
                let cell = self.open_cell(tag, fields.clone(), jit)?;
                for (i, f) in fields.enumerate() {
                    if matches!(slots.shape(f), Some(Shape::Open)) {
                        continue;
                    }
                    let w = self.encode(slots, f, Loc::Field { cell, field: i }, 0, jit)?;
                    if !jit.set_field(cell, i, w) {
                        return Err(JitOutcome::NotSupported);
                    }
                }
                Ok(cell)
            }
        }
    }
}
