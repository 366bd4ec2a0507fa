//! Narrowing with quantifiers in the prefix: a conjecture in prenex form
//! (`Conjecture::prefix`, made by `lang::core::prenex`), searched as Isabelle's
//! `PNF_Narrowing_Engine` does (§5 of Bulwahn's paper), for `∃` over any type, infinite
//! ones included, which no enumerating tester can do.
//!
//! The variables fall into *blocks* of one quantifier: block 0 holds the free variables and
//! the leading `∀` (their values make a counterexample), then `∃` and `∀` blocks alternate.
//! `solve(b)` decides blocks `b..` under the current partial values of the blocks before:
//! it evaluates (the blocks after it, then) the matrix, and when that needs a hole of block
//! `b` it refines the hole, solving again for each alternative: a `∀` block holds when
//! every alternative does, an `∃` block when one does. A hole of an outer block goes up to
//! that block, which refines it and solves the inner ones again for each of its
//! alternatives, so an inner witness may depend on every outer value (the prenex order is
//! kept). What was decided is not kept: memory is the depth of the refinement path.
//!
//! Bounds: block 0's holes range over the exhaustive tester's values at the size, as in
//! the plain search. An inner hole offers every constructor while its budget lasts (a
//! `nat` as `0 | Suc _`, so `0 = Suc m` is false for every `m`); one whose values the
//! budget cuts makes its block *cut*: an `∃` refuted on every branch without a cut is
//! refuted for good (the counterexample is genuine), a cut one is only potentially false,
//! and a counterexample resting on it is potentially spurious, naming the bound.
//!
//! Every counterexample is re-checked: its block-0 values completed, the inner blocks are
//! solved again by the reference interpreter, which must refute them the same way.

use crate::assignment::RefineError;
use crate::search::{stop_of, Case, Narrowing, BUDGET_INTERVAL};
use lang::core::ir::{Quant, Undef};
use lang::interp::{Demand, Value};
use quickcheck::case::describe_undef;
use quickcheck::program::Step;
use quickcheck::{Counterexample, End, Engine, Evaluated, SizeResult, Turn};

/// What blocks `b..` say under the current values of the blocks before `b`.
#[derive(Debug)]
enum Verdict {
    True,
    False,
    /// Neither, for certain: a search was cut.
    Cut(Why),
    /// An outer block's hole must be known first.
    Need(Demand),
    /// The search ends (an answer, a limit).
    Stop(End),
}

/// Why a block is cut.
#[derive(Clone, Debug)]
enum Why {
    /// The size bound left out values of this variable.
    Bound(usize),
    /// An underspecified function was met.
    Undefined(Undef),
}

/// One search over the blocks: where it reports, and what it counts and records.
struct Walk<'w, 't> {
    /// `None` for the re-check, which runs without a budget and judges nothing.
    turn: Option<&'w mut Turn<'t>>,
    res: SizeResult,
    /// Generator size (for messages).
    size: u64,
    /// Some cut was met (the size did not decide everything).
    cut: bool,
    /// Why a cut counterexample was passed over (before the last size, or under
    /// `genuine_only`).
    skipped: Option<Why>,
    /// The first cut counterexample of the last size, reported when it ends without a
    /// genuine one.
    spurious: Option<End>,
    /// The re-check's record of the outermost `∃` block's refutation: per case of its
    /// variables, the values of the next block that make the statement false.
    table: Option<Vec<String>>,
    /// Per block, the values of its variables where it was last found false.
    refuted_at: Vec<String>,
}

impl Narrowing<'_> {
    /// The blocks of the prefix: each variable's block, and each block's quantifier.
    fn blocks(&self) -> (Vec<usize>, Vec<Quant>) {
        let mut of_var = vec![0; self.c.vars.len()];
        let mut quant = vec![Quant::All];
        for (q, v) in &self.c.prefix {
            if quant.last() != Some(q) {
                quant.push(*q);
            }
            of_var[*v] = quant.len() - 1;
        }
        (of_var, quant)
    }

    /// The variable whose value slot `slot` is part of.
    fn var_of(&self, slot: u32) -> Option<usize> {
        let root = self.slots.root(slot)?;
        self.roots.iter().position(|r| *r == Some(root))
    }

    /// One size of the search of a conjecture with a prefix.
    pub(crate) fn run_quantified(&mut self, turn: &mut Turn) -> SizeResult {
        let size = turn.size;
        let mut w = Walk {
            turn: Some(turn),
            res: SizeResult { refinements: Some(0), ..SizeResult::default() },
            size,
            cut: false,
            skipped: None,
            spurious: None,
            table: None,
            refuted_at: Vec::new(),
        };
        if !self.open_roots(size + 1) {
            return w.res;
        }
        let (of_var, quant) = self.blocks();
        w.refuted_at = vec![String::new(); quant.len()];
        let v = self.solve(0, &of_var, &quant, &mut w);
        let mut res = w.res;
        match v {
            Verdict::Stop(e) => res.end = Some(e),
            _ if w.spurious.is_some() => res.end = w.spurious,
            Verdict::Need(d) => {
                res.end = Some(End::Disagreement(format!("narrowing: hole {} has no block", d.hole.id)))
            }
            Verdict::True | Verdict::False | Verdict::Cut(_) => {
                let free = (0..self.c.vars.len()).any(|v| of_var[v] == 0 && self.roots[v].is_some());
                res.note = match (&w.skipped, w.cut) {
                    (Some(why), _) => Some(format!("a counterexample is possible: {}", self.why_words(why, size))),
                    (None, true) => Some(format!("the search for witnesses was cut by the size bound {}", size + 1)),
                    (None, false) if !free => {
                        Some("the statement is true: narrowing decided every quantifier within the size".into())
                    }
                    (None, false) => None,
                };
                self.exhausted = !self.slots.truncated && !w.cut && w.skipped.is_none();
            }
        }
        res
    }

    /// Decides blocks `b..` (see the module comment).
    fn solve(&mut self, b: usize, of_var: &[usize], quant: &[Quant], w: &mut Walk) -> Verdict {
        let r = if b + 1 == quant.len() { self.leaf(w) } else { self.solve(b + 1, of_var, quant, w) };
        let d = match r {
            Verdict::Need(d) => match self.var_of(d.hole.id).map(|v| of_var[v]) {
                Some(owner) if owner == b => d,
                Some(_) => return Verdict::Need(d),
                None => {
                    return Verdict::Stop(End::Disagreement(format!(
                        "narrowing: evaluation needed hole {}, which is not open",
                        d.hole.id
                    )))
                }
            },
            r => return self.decided(b, r, of_var, quant, w),
        };
        let exists = quant[b] == Quant::Ex;
        let var = self.var_of(d.hole.id).unwrap_or(0);
        let before = std::mem::take(&mut self.slots.truncated);
        // An inner hole is refined lazily (a `nat` one `Suc` at a time) so that its
        // alternatives cover its whole type, whatever the evaluation needed.
        let alts = self.slots.alternatives(d.hole.id, d.whole && b == 0);
        let truncated = self.slots.truncated;
        // Only block 0's values are bounded by the size as the exhaustive tester's are;
        // an inner block left incomplete is cut.
        self.slots.truncated = before || (b == 0 && truncated);
        let alts = match alts {
            Ok(a) => a,
            Err(RefineError::TooBig) if b == 0 => return Verdict::Stop(End::TooBig),
            Err(RefineError::TooBig) => {
                w.cut = true;
                return Verdict::Cut(Why::Bound(var));
            }
            Err(RefineError::UnknownHole(h)) => {
                return Verdict::Stop(End::Disagreement(format!(
                    "narrowing: evaluation needed hole {h}, which is not open"
                )))
            }
        };
        w.res.refinements = w.res.refinements.map(|r| r + 1);
        let mut cut = (truncated && b > 0).then_some(Why::Bound(var));
        let (slot, len) = (d.hole.id, self.slots.len());
        for alt in alts.iter() {
            self.fill(slot, alt);
            let r = self.solve(b, of_var, quant, w);
            self.reopen(slot, len);
            match (exists, r) {
                (_, r @ (Verdict::Need(_) | Verdict::Stop(_))) => return r,
                (false, Verdict::False) => return Verdict::False,
                (true, Verdict::True) => return Verdict::True,
                (_, Verdict::Cut(why)) => {
                    cut.get_or_insert(why);
                }
                _ => {}
            }
        }
        match (exists, cut) {
            (_, Some(why)) => {
                w.cut = true;
                Verdict::Cut(why)
            }
            (false, None) => Verdict::True,
            (true, None) => Verdict::False,
        }
    }

    /// The matrix on the current partial values.
    fn leaf(&mut self, w: &mut Walk) -> Verdict {
        if let Some(turn) = w.turn.as_deref_mut() {
            if w.res.tests % BUDGET_INTERVAL == BUDGET_INTERVAL - 1 {
                if let Some(e) = turn.budget.over_at(w.res.passed) {
                    return Verdict::Stop(e);
                }
            }
        }
        w.res.tests += 1;
        // What was decided on another branch says nothing here.
        self.held.clear();
        self.held.resize(self.sched.steps.len(), None);
        match self.case(0) {
            Ok(Case::Passed) => {
                w.res.passed += 1;
                Verdict::True
            }
            Ok(Case::Rejected) => Verdict::True,
            Ok(Case::Failed(None)) => {
                w.res.passed += 1;
                Verdict::False
            }
            Ok(Case::Failed(Some(u))) => {
                w.res.passed += 1;
                Verdict::Cut(Why::Undefined(u))
            }
            Ok(Case::Need(d)) => Verdict::Need(d),
            Err(e) => Verdict::Stop(End::Stopped(stop_of(e))),
        }
    }

    /// Block `b` decided `r` at the current values of blocks `..=b`: recorded for the
    /// refutation table, and judged when it makes a counterexample (block 0).
    fn decided(&mut self, b: usize, r: Verdict, of_var: &[usize], quant: &[Quant], w: &mut Walk) -> Verdict {
        if w.table.is_some() && matches!(r, Verdict::False) {
            let values = self.block_values(b, of_var);
            if quant[b] == Quant::All {
                w.refuted_at[b] = values;
            } else if quant[..b].iter().all(|q| *q == Quant::All) {
                let inner = w.refuted_at.get(b + 1).filter(|s| !s.is_empty());
                let line = match inner {
                    Some(i) => format!("{values}: false for {i}"),
                    None => format!("{values}: false"),
                };
                w.table.get_or_insert_with(Vec::new).push(line);
            }
        }
        if b != 0 || w.turn.is_none() {
            return r;
        }
        let why = match r {
            Verdict::False => None,
            Verdict::Cut(why) => Some(why),
            r => return r,
        };
        let Some(turn) = w.turn.as_deref_mut() else {
            return Verdict::Stop(End::Disagreement("narrowing: a counterexample outside a search".into()));
        };
        // A cut counterexample waits for the end of the last size: a genuine one may come
        // later, and at a smaller size a larger one may find the witness.
        let last = w.size + 1 >= self.last_size;
        if let Some(cut) = why.as_ref().filter(|_| !last || !turn.judge.keeps(true) || w.spurious.is_some()) {
            w.skipped.get_or_insert(cut.clone());
            return Verdict::True;
        }
        match self.verdict(why, turn.judge.deadline, w.size, of_var, quant) {
            Some(End::Spurious(cx)) => {
                w.spurious = Some(End::Spurious(cx));
                Verdict::True
            }
            Some(end) => Verdict::Stop(end),
            None => Verdict::True,
        }
    }

    /// `x = 0, ys = _ # _`: the current values of block `b`'s variables.
    fn block_values(&mut self, b: usize, of_var: &[usize]) -> String {
        let mut out = Vec::new();
        for (v, block) in of_var.iter().enumerate() {
            if let (true, Some(root)) = (*block == b, self.roots[v]) {
                let value = self.slots.value(root);
                let var = &self.c.vars[v];
                out.push(format!("{} = {}", var.name, self.eval.interp.print(&value, &var.ty)));
            }
        }
        out.join(", ")
    }

    fn why_words(&self, why: &Why, size: u64) -> String {
        match why {
            Why::Bound(v) => format!(
                "no witness for `{}` was found up to size {} (the search for one was cut there)",
                self.c.vars[*v].name,
                size + 1
            ),
            Why::Undefined(u) => describe_undef(u),
        }
    }

    /// The counterexample at the current values of block 0, re-checked: its completion,
    /// with the inner blocks solved again by the interpreter. `None` goes on searching.
    fn verdict(
        &mut self,
        why: Option<Why>,
        deadline: std::time::Instant,
        size: u64,
        of_var: &[usize],
        quant: &[Quant],
    ) -> Option<End> {
        let Some(generated) = self.completion() else {
            return Some(End::Disagreement("narrowing: no value completes the counterexample".into()));
        };
        let outer: Vec<Option<Value>> =
            generated.iter().enumerate().map(|(v, x)| x.clone().filter(|_| of_var[v] == 0)).collect();
        let mut check = Narrowing::with_engine(self.c, Engine::Interpreter, deadline);
        let (again, table) = check.recheck(&outer, size, of_var, quant);
        match (&why, again) {
            (None, Verdict::False) | (Some(_), Verdict::Cut(_)) => {}
            (_, Verdict::Stop(e)) => return Some(e),
            (_, again) => {
                return Some(End::Disagreement(format!(
                "narrowing: compiled code and interpreter disagree: the re-check of the counterexample says {again:?}"
            )))
            }
        }
        let mut cx = check.counterexample(&outer, of_var);
        Some(match why {
            None => {
                // Proved false whatever block 0's holes are (no search was cut: a cut one is
                // only potentially false, and its partial values are no proof). Inner
                // variables are holes here: only block 0's partial values are a counterexample.
                cx.partial = self
                    .partial_assignment()
                    .into_iter()
                    .filter(|(n, _)| self.c.vars.iter().position(|v| v.name == *n).is_some_and(|v| of_var[v] == 0))
                    .collect();
                cx.refutation = table;
                End::Genuine(cx, Vec::new())
            }
            Some(why) => {
                cx.spurious_because = Some(self.why_words(&why, size));
                End::Spurious(cx)
            }
        })
    }

    /// Solves every block again with block 0's variables at `outer`, recording the
    /// refutation table.
    fn recheck(
        &mut self,
        outer: &[Option<Value>],
        size: u64,
        of_var: &[usize],
        quant: &[Quant],
    ) -> (Verdict, Vec<String>) {
        let mut w = Walk {
            turn: None,
            res: SizeResult::default(),
            size,
            cut: false,
            skipped: None,
            spurious: None,
            table: Some(Vec::new()),
            refuted_at: vec![String::new(); quant.len()],
        };
        if !self.open_roots(size + 1) {
            return (Verdict::True, Vec::new());
        }
        for (v, x) in outer.iter().enumerate() {
            if let (Some(x), Some(root)) = (x, self.roots[v]) {
                self.fill(root, &crate::assignment::Alternative::Known(x.clone()));
            }
        }
        let v = self.solve(0, of_var, quant, &mut w);
        (v, w.table.unwrap_or_default())
    }

    /// The report of a counterexample at `outer` (block 0's values): the free variables
    /// (those a premise computes too), and the premises and conclusion that mention no
    /// quantified variable, evaluated.
    fn counterexample(&mut self, outer: &[Option<Value>], of_var: &[usize]) -> Counterexample {
        let c = self.c;
        let mut vals: Vec<Option<Value>> = outer.to_vec();
        for step in &self.sched.steps {
            if let Step::Bind { var, premise } = *step {
                let Some(b) = &c.premises[premise].binding else { continue };
                if b.uses.iter().all(|u| vals[*u].is_some()) {
                    let args = vals.iter().map(|v| v.clone().unwrap_or(Value::Bool(false))).collect();
                    vals[var] = self.eval.interp.call(b.fun, args, &self.limits).ok();
                }
            }
        }
        let args: Vec<Value> = vals.iter().map(|v| v.clone().unwrap_or(Value::Bool(false))).collect();
        let outer_only = |uses: &[usize]| uses.iter().all(|u| of_var[*u] == 0);
        let mut evaluated = Vec::new();
        let mut show = |n: &mut Narrowing, f, span| {
            let ret = c.lazy_program().fun(f).ret.clone();
            let value = match n.eval.interp.call(f, args.clone(), &n.limits) {
                Ok(v) => n.eval.interp.print(&v, &ret),
                Err(e) => format!("({e})"),
            };
            evaluated.push(Evaluated { span, value });
        };
        for p in c.premises.iter().filter(|p| outer_only(&p.uses)) {
            show(self, p.fun, p.span);
        }
        if outer_only(&c.conclusion.uses) {
            match &c.conclusion.sides {
                Some(s) => {
                    show(self, s.lhs, s.lhs_span);
                    show(self, s.rhs, s.rhs_span);
                }
                None => show(self, c.conclusion.fun, c.conclusion.span),
            }
        }
        let mut assignment = Vec::new();
        for (v, x) in vals.iter().enumerate() {
            if let (0, Some(x)) = (of_var[v], x) {
                assignment.push((c.vars[v].name.clone(), self.eval.interp.print(x, &c.vars[v].ty)));
            }
        }
        Counterexample {
            assignment,
            evaluated,
            instance: c.instance.clone(),
            spurious_because: None,
            partial: Vec::new(),
            refutation: Vec::new(),
            generalizations: Vec::new(),
        }
    }
}
