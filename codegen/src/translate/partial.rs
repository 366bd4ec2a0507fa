//! Narrowing mode (`Jit::narrowing`): the code that follows the interpreter's rules for
//! partial values (`lang::value`'s `holes` module) on partial words (`crate::holes`).
//! A demand sets `ST_REFINE` and leaves through the current fail target, like any failure.
//!
//! - Strict consumers (`case`, `if`, arithmetic, application) test their operand and demand
//!   it (`demand_if_partial`).
//! - Lazy positions (a constructor's field, a `let`'s right-hand side, an argument) are
//!   compiled with a local handler as their fail target (`translate_lazy`): a demand met
//!   while computing the value makes it a stuck word, raised only if something inspects it.
//! - `if` with a truth-value branch (`∧`, `∨`, `⟶`) is parallel (`parallel_if`): when the
//!   condition demands, the other branch is tried, and decides if it gives that truth value.
//!
//! A handler restores the depth counter, which a callee's failure leaves raised (the fail
//! path does not give it back). Failures other than a demand go on to the outer target.

use super::{Continuation, FunctionTranslator};
use crate::holes::{self, DemandKind};
use crate::runtime::{OFF_DEPTH, OFF_DETAIL, OFF_STATUS, ST_OVERFLOW, ST_REFINE, ST_UNDEFINED};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::I64;
use cranelift_codegen::ir::{Block, InstBuilder, Value};
use lang::core::ir::{Expr, Lit, Ty};

/// Whether computing `e` may demand a hole: constructors (whose fields are lazy), λs and
/// leaves never do.
fn may_demand(e: &Expr) -> bool {
    !matches!(e, Expr::Var(_) | Expr::Lit(_) | Expr::FunRef(_) | Expr::Lambda(..) | Expr::Ctor(..))
}

impl FunctionTranslator<'_, '_, '_> {
    /// Whether this code is compiled for partial words.
    pub fn narrowing(&self) -> bool {
        self.compiler.narrowing
    }

    /// `e` in a lazy position: in narrowing mode, its value is a stuck word when computing
    /// it demands a hole (`Run::eval_lazy`).
    pub fn translate_lazy(&mut self, e: &Expr) -> Value {
        if !self.narrowing() || !may_demand(e) {
            return self.translate_expr(e);
        }
        let (handler, recover, join) =
            (self.builder.create_block(), self.builder.create_block(), self.builder.create_block());
        self.builder.append_block_param(join, I64);
        let depth = self.load_ctx(OFF_DEPTH);
        self.push_fail_target(handler);
        let v = self.translate_expr(e);
        self.pop_fail_target();
        self.builder.ins().jump(join, &[v.into()]);

        self.builder.switch_to_block(handler);
        self.builder.set_cold_block(handler);
        let st = self.load_ctx(OFF_STATUS);
        let refine = self.builder.ins().icmp_imm_s(IntCC::Equal, st, ST_REFINE);
        let outer = self.fail_target();
        self.builder.ins().brif(refine, recover, &[], outer, &[]);
        self.builder.switch_to_block(recover);
        self.builder.set_cold_block(recover);
        let z = self.builder.ins().iconst(I64, 0);
        self.store_ctx(OFF_STATUS, z);
        self.store_ctx(OFF_DEPTH, depth);
        let d = self.load_ctx(OFF_DETAIL);
        let stuck = self.builder.ins().bor_imm_u(d, holes::STUCK as i64);
        self.builder.ins().jump(join, &[stuck.into()]);

        self.builder.switch_to_block(join);
        self.builder.block_params(join)[0]
    }

    /// In narrowing mode: when `w` (of type `ty`) is a partial word, demands it as `kind`
    /// says and leaves through the fail target.
    pub fn demand_if_partial(&mut self, w: Value, ty: &Ty, kind: DemandKind) {
        if !self.narrowing() {
            return;
        }
        let partial = self.is_partial(w, ty);
        let (cold, ok) = (self.builder.create_block(), self.builder.create_block());
        self.builder.ins().brif(partial, cold, &[], ok, &[]);
        self.builder.switch_to_block(cold);
        self.builder.set_cold_block(cold);
        self.demand(w, kind);
        self.builder.switch_to_block(ok);
    }

    /// Sets `ST_REFINE` for partial word `w` and leaves through the fail target (ends the
    /// current block).
    pub fn demand(&mut self, w: Value, kind: DemandKind) {
        let f = self.func_ref(self.compiler.runtime.demand);
        let k = self.builder.ins().iconst(I64, kind as i64);
        self.builder.ins().call(f, &[self.ctx, w, k]);
        let target = self.fail_target();
        self.builder.ins().jump(target, &[]);
    }

    /// 1 when `w`, of type `ty`, is a partial word.
    pub fn is_partial(&mut self, w: Value, ty: &Ty) -> Value {
        match ty {
            Ty::Int => self.builder.ins().icmp_imm_s(IntCC::SignedLessThan, w, holes::INT_PARTIAL_END),
            _ => self.builder.ins().icmp_imm_s(IntCC::SignedLessThan, w, 0),
        }
    }

    /// In narrowing mode, an `int` result that collides with the partial words is handed
    /// over, as a number past 64 bits is.
    pub fn int_result(&mut self, r: Value) -> Value {
        if self.narrowing() {
            let bad = self.builder.ins().icmp_imm_s(IntCC::SignedLessThan, r, holes::INT_PARTIAL_END);
            self.fail_if(bad, ST_OVERFLOW);
        }
        r
    }

    /// `Suc` of a `nat` word that may be a hole: one more `Suc` on the hole (`Suc^k ?`), a
    /// demand on a stuck word.
    pub fn partial_suc(&mut self, w: Value) -> Value {
        let (cold, hole, plain, join) = (
            self.builder.create_block(),
            self.builder.create_block(),
            self.builder.create_block(),
            self.builder.create_block(),
        );
        self.builder.append_block_param(join, I64);
        let partial = self.is_partial(w, &Ty::Nat);
        self.builder.ins().brif(partial, cold, &[], plain, &[]);
        self.builder.switch_to_block(cold);
        self.builder.set_cold_block(cold);
        let stuck = self.builder.ins().band_imm_u(w, holes::STUCK as i64);
        let demand = self.builder.create_block();
        self.builder.ins().brif(stuck, demand, &[], hole, &[]);
        self.builder.switch_to_block(demand);
        self.demand(w, DemandKind::Whole);
        self.builder.switch_to_block(hole);
        let r = self.builder.ins().iadd_imm_s(w, holes::ONE_SUC);
        // Past the `Suc`s a word holds, the carry clears the sign: hand over.
        let wrapped = self.builder.ins().icmp_imm_s(IntCC::SignedGreaterThanOrEqual, r, 0);
        self.fail_if(wrapped, ST_OVERFLOW);
        self.builder.ins().jump(join, &[r.into()]);
        self.builder.switch_to_block(plain);
        let one = self.builder.ins().iconst(I64, 1);
        let (r, o) = self.builder.ins().sadd_overflow(w, one);
        self.fail_if(o, ST_OVERFLOW);
        self.builder.ins().jump(join, &[r.into()]);
        self.builder.switch_to_block(join);
        self.builder.block_params(join)[0]
    }

    /// The `nat` case on `v` in narrowing mode: `Suc^k ?` with `k > 0` takes the `Suc`
    /// branch with `Suc^(k-1) ?` as predecessor; a hole without `Suc`s or a stuck word is
    /// demanded. Jumps to `succ` with the predecessor, or to `zero`.
    pub fn partial_nat_case(&mut self, v: Value, zero: Block, succ: Block) {
        let (cold, plain, dec) =
            (self.builder.create_block(), self.builder.create_block(), self.builder.create_block());
        let partial = self.is_partial(v, &Ty::Nat);
        self.builder.ins().brif(partial, cold, &[], plain, &[]);
        self.builder.switch_to_block(cold);
        self.builder.set_cold_block(cold);
        // A stuck word has no `Suc`s: only a hole with some is below `ONE_SUC` after the
        // sign bit is cleared.
        let body = self.builder.ins().band_imm_u(v, !(holes::PARTIAL as i64));
        let has_suc = self.builder.ins().icmp_imm_u(IntCC::UnsignedGreaterThanOrEqual, body, holes::ONE_SUC);
        let (shifted, demand) = (self.builder.create_block(), self.builder.create_block());
        self.builder.ins().brif(has_suc, shifted, &[], demand, &[]);
        self.builder.switch_to_block(demand);
        self.demand(v, DemandKind::Shape);
        self.builder.switch_to_block(shifted);
        let p = self.builder.ins().iadd_imm_s(v, -holes::ONE_SUC);
        self.builder.ins().jump(succ, &[p.into()]);
        self.builder.switch_to_block(plain);
        self.builder.ins().brif(v, dec, &[], zero, &[]);
        self.builder.switch_to_block(dec);
        let p = self.builder.ins().iadd_imm_s(v, -1);
        self.builder.ins().jump(succ, &[p.into()]);
    }

    /// Whether `if c then t else f` is parallel in narrowing mode: one branch is a truth
    /// value (the lowering of `∧`, `∨`, `⟶`).
    pub fn is_parallel_if(&self, t: &Expr, f: &Expr) -> bool {
        self.narrowing() && (matches!(t, Expr::Lit(Lit::Bool(_))) || matches!(f, Expr::Lit(Lit::Bool(_))))
    }

    /// `if c then t else f` with a truth-value branch, in narrowing mode (`Run::parallel_if`):
    /// when `c` demands a hole, the other branch is evaluated, and if it gives the truth
    /// value too, that is the value, nothing refined; otherwise `c`'s demand stands.
    /// An undefined value or a demand in the other branch lets `c`'s demand stand; any
    /// other failure there (a hand-over, a limit) goes on as it is.
    pub fn parallel_if(&mut self, c: &Expr, t: &Expr, f: &Expr, k: Continuation) {
        let (lit, other) = match (t, f) {
            (Expr::Lit(Lit::Bool(b)), other) | (other, Expr::Lit(Lit::Bool(b))) => (*b, other),
            _ => unreachable!("is_parallel_if"),
        };
        let handler = self.builder.create_block();
        let par = self.builder.create_block();
        let d = self.builder.append_block_param(par, I64);
        let depth = self.load_ctx(OFF_DEPTH);
        self.push_fail_target(handler);
        let cond = self.translate_expr(c);
        self.pop_fail_target();
        let (cold, test) = (self.builder.create_block(), self.builder.create_block());
        let partial = self.is_partial(cond, &Ty::Bool);
        self.builder.ins().brif(partial, cold, &[], test, &[]);
        // The condition is a partial word: its demand, as `blocked(c, false)`.
        self.builder.switch_to_block(cold);
        self.builder.set_cold_block(cold);
        let stuck = self.builder.ins().band_imm_u(cond, holes::STUCK as i64);
        let own = self.builder.ins().band_imm_u(cond, !(holes::STUCK as i64));
        let id = self.builder.ins().band_imm_u(cond, u32::MAX as i64);
        let of_hole = self.builder.ins().bor_imm_u(id, holes::PARTIAL as i64);
        let dw = self.builder.ins().select(stuck, own, of_hole);
        self.builder.ins().jump(par, &[dw.into()]);
        // Computing the condition demanded a hole.
        self.builder.switch_to_block(handler);
        self.builder.set_cold_block(handler);
        let outer = self.fail_target();
        let st = self.load_ctx(OFF_STATUS);
        let refine = self.builder.ins().icmp_imm_s(IntCC::Equal, st, ST_REFINE);
        let recover = self.builder.create_block();
        self.builder.ins().brif(refine, recover, &[], outer, &[]);
        self.builder.switch_to_block(recover);
        let z = self.builder.ins().iconst(I64, 0);
        self.store_ctx(OFF_STATUS, z);
        self.store_ctx(OFF_DEPTH, depth);
        let dw = self.load_ctx(OFF_DETAIL);
        self.builder.ins().jump(par, &[dw.into()]);
        // The condition decides.
        self.builder.switch_to_block(test);
        let (then_block, else_block) = (self.builder.create_block(), self.builder.create_block());
        self.builder.ins().brif(cond, then_block, &[], else_block, &[]);
        self.builder.switch_to_block(then_block);
        self.translate_tail(t, k);
        self.builder.switch_to_block(else_block);
        self.translate_tail(f, k);
        // The other branch, with the condition's demand `d` waiting.
        self.builder.switch_to_block(par);
        let (other_failed, decided, undecided) =
            (self.builder.create_block(), self.builder.create_block(), self.builder.create_block());
        self.push_fail_target(other_failed);
        let o = self.translate_expr(other);
        self.pop_fail_target();
        let same = self.builder.ins().icmp_imm_s(IntCC::Equal, o, lit as i64);
        self.builder.ins().brif(same, decided, &[], undecided, &[]);
        self.builder.switch_to_block(decided);
        let v = self.builder.ins().iconst(I64, lit as i64);
        self.deliver(v, k);
        self.builder.switch_to_block(other_failed);
        self.builder.set_cold_block(other_failed);
        let st = self.load_ctx(OFF_STATUS);
        let refine = self.builder.ins().icmp_imm_s(IntCC::Equal, st, ST_REFINE);
        let undef = self.builder.ins().icmp_imm_s(IntCC::Equal, st, ST_UNDEFINED);
        let stands = self.builder.ins().bor(refine, undef);
        self.builder.ins().brif(stands, undecided, &[], outer, &[]);
        self.builder.switch_to_block(undecided);
        self.builder.set_cold_block(undecided);
        self.store_ctx(OFF_DETAIL, d);
        let r = self.builder.ins().iconst(I64, ST_REFINE);
        self.store_ctx(OFF_STATUS, r);
        self.builder.ins().jump(outer, &[]);
    }
}
