//! Pattern matching on datatype words (`Case`): dispatch on the constructor tag, with the
//! matched cell's fields bound to the alternative's binders.

use super::{mem_flags, Continuation, FunctionTranslator};
use crate::holes::DemandKind;
use crate::runtime::ST_NOT_SUPPORTED;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::I64;
use cranelift_codegen::ir::{Block, InstBuilder, Value};
use cranelift_frontend::Switch;
use lang::core::ir::{Alt, DataId, Expr, Ty};

impl FunctionTranslator<'_, '_, '_> {
    /// `case v of alts | _ => default` (of datatype `data`), each branch sending its value
    /// to `k`. Without a default, a tag no alternative has is handed over.
    pub fn translate_case(&mut self, v: Value, data: DataId, alts: &[Alt], default: Option<&Expr>, k: Continuation) {
        self.demand_if_partial(v, &Ty::Data(data), DemandKind::Shape);
        let blocks: Vec<Block> = alts.iter().map(|_| self.builder.create_block()).collect();
        let otherwise = self.builder.create_block();
        let target = |tag: u32| alts.iter().position(|a| a.tag == tag).map_or(otherwise, |i| blocks[i]);
        // The low bit tells immediates (nullary constructors) from cells, so a datatype with
        // one constructor of each kind (lists, options, trees) dispatches on that bit alone,
        // without loading the tag or a jump table.
        let d = self.compiler.program.data(data);
        let (mut immediates, mut cells) = (Vec::new(), Vec::new());
        for (t, c) in d.ctors.iter().enumerate() {
            let t = t as u32;
            if c.fields.is_empty() {
                immediates.push((t, target(t)));
            } else {
                cells.push((t, target(t)));
            }
        }
        match (immediates.is_empty(), cells.is_empty()) {
            (false, true) => {
                let tag = self.builder.ins().ushr_imm_u(v, 1);
                self.dispatch_tag(tag, &immediates, otherwise);
            }
            (true, false) => self.dispatch_cell(v, &cells, otherwise),
            _ => {
                let (immediate_block, cell_block) = (self.builder.create_block(), self.builder.create_block());
                let low = self.builder.ins().band_imm_u(v, 1);
                self.builder.ins().brif(low, immediate_block, &[], cell_block, &[]);
                self.builder.switch_to_block(immediate_block);
                let tag = self.builder.ins().ushr_imm_u(v, 1);
                self.dispatch_tag(tag, &immediates, otherwise);
                self.builder.switch_to_block(cell_block);
                self.dispatch_cell(v, &cells, otherwise);
            }
        }
        for (a, blk) in alts.iter().zip(&blocks) {
            self.builder.switch_to_block(*blk);
            for (i, x) in a.binders.iter().enumerate() {
                let f = self.builder.ins().load(I64, mem_flags(), v, (8 * (i + 1)) as i32);
                self.bind(*x, f);
            }
            self.translate_tail(&a.body, k);
        }
        self.builder.switch_to_block(otherwise);
        match default {
            Some(e) => self.translate_tail(e, k),
            None => self.fail_here(ST_NOT_SUPPORTED),
        }
    }

    /// Jumps to the block of `tag` among `targets` (every tag a word of this kind can have).
    fn dispatch_tag(&mut self, tag: Value, targets: &[(u32, Block)], otherwise: Block) {
        match targets {
            [] => {
                self.builder.ins().jump(otherwise, &[]);
            }
            [(_, only)] => {
                self.builder.ins().jump(*only, &[]);
            }
            [(t0, b0), (_, b1)] => {
                let is0 = self.builder.ins().icmp_imm_s(IntCC::Equal, tag, *t0 as i64);
                self.builder.ins().brif(is0, *b0, &[], *b1, &[]);
            }
            _ => {
                let mut sw = Switch::new();
                for (t, blk) in targets {
                    sw.set_entry(*t as u128, *blk);
                }
                sw.emit(&mut self.builder, tag, otherwise);
            }
        }
    }

    /// `dispatch_tag` for a cell, loading its tag only when there is more than one to tell
    /// apart.
    fn dispatch_cell(&mut self, v: Value, targets: &[(u32, Block)], otherwise: Block) {
        if targets.len() == 1 {
            self.builder.ins().jump(targets[0].1, &[]);
        } else {
            let tag = self.builder.ins().uload32(mem_flags(), v, 0);
            self.dispatch_tag(tag, targets, otherwise);
        }
    }
}
