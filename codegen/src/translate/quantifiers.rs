//! Quantifiers (`∀`, `∃`, `∃!`) and set comprehensions as loops over a finite domain: the
//! elements of a finite set cell, the values of `bool` and of datatypes of nullary
//! constructors, or the universe cell of another finite type. Each step spends fuel.

use super::{mem_flags, FunctionTranslator};
use crate::holes::DemandKind;
use crate::runtime::ST_NOT_SUPPORTED;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::I64;
use cranelift_codegen::ir::{Block, InstBuilder, Value};
use lang::core::ir::{Expr, Quant, Ty, VarId};

/// What a quantifier or comprehension loops over: `len` values, the elements of a finite set
/// cell, or the values of an enumerable type.
pub(super) struct LoopDomain {
    len: Value,
    set_cell: Option<Value>,
    is_bool: bool,
}

/// The blocks and values of a loop made by `counted_loop`.
struct CountedLoop {
    head: Block,
    step: Block,
    exit: Block,
    i: Value,
    acc: Value,
    done: Value,
}

impl FunctionTranslator<'_, '_, '_> {
    /// Number of values of `ty` when the JIT enumerates it natively: `bool` and datatypes of
    /// nullary constructors only (value `i` is `i`, resp. the immediate of tag `i`).
    pub fn enumerated_size(&self, ty: &Ty) -> Option<u32> {
        match ty {
            Ty::Bool => Some(2),
            Ty::Data(d) if self.compiler.program.data(*d).ctors.iter().all(|c| c.fields.is_empty()) => {
                Some(self.compiler.program.data(*d).ctors.len() as u32)
            }
            _ => None,
        }
    }

    /// The values of finite type `ty` from its universe cell (`ProgramCompiler::universe`):
    /// `None` when there is none.
    pub fn universe_domain(&mut self, ty: &Ty) -> Option<LoopDomain> {
        let (cell, n) = self.compiler.universe(ty)?;
        let len = self.builder.ins().iconst(I64, n as i64);
        let cell = self.builder.ins().iconst(I64, cell as i64);
        Some(LoopDomain { len, set_cell: Some(cell), is_bool: false })
    }

    /// The values of `ty`, which `enumerated_size` enumerates.
    pub fn enumerated_domain(&mut self, ty: &Ty) -> LoopDomain {
        let n = self.enumerated_size(ty).unwrap_or(0) as i64;
        let len = self.builder.ins().iconst(I64, n);
        LoopDomain { len, set_cell: None, is_bool: *ty == Ty::Bool }
    }

    /// The elements of a finite set (a complement is handed over).
    pub fn set_domain(&mut self, d: &Expr, elem: &Ty) -> LoopDomain {
        let cell = self.translate_expr(d);
        // Narrowing mode: a domain not known yet is demanded whole, as the interpreter does.
        self.demand_if_partial(cell, &Ty::Set(Box::new(elem.clone())), DemandKind::Whole);
        let complement = self.builder.ins().load(I64, mem_flags(), cell, 0);
        self.fail_if(complement, ST_NOT_SUPPORTED);
        let len = self.builder.ins().load(I64, mem_flags(), cell, 8);
        LoopDomain { len, set_cell: Some(cell), is_bool: false }
    }

    /// Element `i` of a loop domain, bound to `var`.
    fn bind_domain_element(&mut self, domain: &LoopDomain, i: Value, var: VarId) {
        let x = match domain.set_cell {
            Some(cell) => {
                let off = self.builder.ins().ishl_imm_u(i, 3);
                let addr = self.builder.ins().iadd(cell, off);
                self.builder.ins().load(I64, mem_flags(), addr, 16)
            }
            None if domain.is_bool => i,
            None => {
                let sh = self.builder.ins().ishl_imm_u(i, 1);
                self.builder.ins().bor_imm_u(sh, 1)
            }
        };
        self.bind(var, x);
    }

    /// The header of a loop over `i` in `0..len` with one accumulator, both starting at 0:
    /// the builder is left in `head`, where the caller branches on `done` to `exit` (which
    /// takes the loop's result as its parameter) or to `step`.
    fn counted_loop(&mut self, len: Value) -> CountedLoop {
        let (head, step, exit) =
            (self.builder.create_block(), self.builder.create_block(), self.builder.create_block());
        self.builder.append_block_param(head, I64);
        self.builder.append_block_param(head, I64);
        self.builder.append_block_param(exit, I64);
        let zero = self.builder.ins().iconst(I64, 0);
        self.builder.ins().jump(head, &[zero.into(), zero.into()]);
        self.builder.switch_to_block(head);
        let (i, acc) = (self.builder.block_params(head)[0], self.builder.block_params(head)[1]);
        let done = self.builder.ins().icmp(IntCC::Equal, i, len);
        CountedLoop { head, step, exit, i, acc, done }
    }

    /// A quantifier as a loop over its domain's values in ascending order that stops where
    /// the interpreter stops (first false for ∀, first true for ∃, second true for ∃!).
    pub fn quantifier(&mut self, q: Quant, var: VarId, domain: LoopDomain, body: &Expr) -> Value {
        let CountedLoop { head, step, exit, i, acc: found, done } = self.counted_loop(domain.len);
        let at_end = match q {
            Quant::All => self.builder.ins().iconst(I64, 1),
            Quant::Ex => self.builder.ins().iconst(I64, 0),
            Quant::Ex1 => {
                let one = self.builder.ins().icmp_imm_s(IntCC::Equal, found, 1);
                self.builder.ins().uextend(I64, one)
            }
        };
        self.builder.ins().brif(done, exit, &[at_end.into()], step, &[]);
        self.builder.switch_to_block(step);
        // Each step spends fuel, as the interpreter's enumeration does: nested quantifiers
        // over small types multiply, and only fuel brings the deadline into a loop.
        self.spend_fuel();
        self.bind_domain_element(&domain, i, var);
        let holds = self.translate_expr(body);
        self.demand_if_partial(holds, &Ty::Bool, DemandKind::Shape);
        let next = self.builder.ins().iadd_imm_s(i, 1);
        match q {
            Quant::All => {
                let f = self.builder.ins().iconst(I64, 0);
                self.builder.ins().brif(holds, head, &[next.into(), found.into()], exit, &[f.into()]);
            }
            Quant::Ex => {
                let t = self.builder.ins().iconst(I64, 1);
                self.builder.ins().brif(holds, exit, &[t.into()], head, &[next.into(), found.into()]);
            }
            Quant::Ex1 => {
                let found2 = self.builder.ins().iadd(found, holds);
                let two = self.builder.ins().icmp_imm_s(IntCC::SignedGreaterThan, found2, 1);
                let f = self.builder.ins().iconst(I64, 0);
                self.builder.ins().brif(two, exit, &[f.into()], head, &[next.into(), found2.into()]);
            }
        }
        self.builder.switch_to_block(exit);
        self.builder.block_params(exit)[0]
    }

    /// `{x ∈ domain. body}`: a set cell with room for every element, filled in ascending
    /// order (so it is canonical), its count written at the end.
    pub fn comprehension(&mut self, var: VarId, domain: LoopDomain, body: &Expr) -> Value {
        let p = self.take_arena_room(|tr, p| {
            let bytes = tr.builder.ins().ishl_imm_u(domain.len, 3);
            let np = tr.builder.ins().iadd(p, bytes);
            tr.builder.ins().iadd_imm_s(np, 16)
        });
        let CountedLoop { head, step, exit, i, acc: count, done } = self.counted_loop(domain.len);
        self.builder.ins().brif(done, exit, &[count.into()], step, &[]);
        self.builder.switch_to_block(step);
        self.spend_fuel();
        self.bind_domain_element(&domain, i, var);
        let x = self.use_var(var);
        let holds = self.translate_expr(body);
        self.demand_if_partial(holds, &Ty::Bool, DemandKind::Shape);
        // Every element is written at the next free place, and only one that holds moves
        // the count past it: no branch on the body's value.
        let off = self.builder.ins().ishl_imm_u(count, 3);
        let addr = self.builder.ins().iadd(p, off);
        self.builder.ins().store(mem_flags(), x, addr, 16);
        let next_count = self.builder.ins().iadd(count, holds);
        let next = self.builder.ins().iadd_imm_s(i, 1);
        self.builder.ins().jump(head, &[next.into(), next_count.into()]);
        self.builder.switch_to_block(exit);
        let count = self.builder.block_params(exit)[0];
        let zero = self.builder.ins().iconst(I64, 0);
        self.builder.ins().store(mem_flags(), zero, p, 0);
        self.builder.ins().store(mem_flags(), count, p, 8);
        p
    }
}
