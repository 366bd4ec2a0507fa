//! `smallest`: a toy tester, defined outside the crate to show that a tester is one `Tester`
//! impl plus one registry row (`Registry::standard().with(Smallest)`) and nothing else. It
//! tries one case only: every generated variable at the first value of its space, at the
//! first size where every such space has one. The driver does the rest: sizes, limits,
//! re-checking the counterexample, the report. Shared by `quickcheck`'s tests and `hol`'s
//! (`#[path]`).

use lang::core::conjecture::Conjecture;
use quickcheck::case::{run_step, Flow};
use quickcheck::program::{Schedule, Step};
use quickcheck::runner::Runner;
use quickcheck::space::Spaces;
use quickcheck::{Coverage, End, Search, Setup, SizeResult, Tester, Turn};

pub struct Smallest;

impl Tester for Smallest {
    fn name(&self) -> &'static str {
        "smallest"
    }

    fn about(&self) -> &'static str {
        "The all-smallest assignment only (a toy)"
    }

    fn coverage(&self) -> Coverage {
        Coverage::Complete
    }

    fn search<'c>(&self, conjecture: &'c Conjecture, setup: &Setup) -> Box<dyn Search + 'c> {
        Box::new(SmallestSearch {
            c: conjecture,
            sched: Schedule::of(conjecture),
            r: Runner::new(conjecture, setup.engine, setup.deadline),
            done: false,
        })
    }
}

struct SmallestSearch<'c> {
    c: &'c Conjecture,
    sched: Schedule,
    r: Runner<'c>,
    /// The one case was tested.
    done: bool,
}

impl Search for SmallestSearch<'_> {
    fn run_size(&mut self, turn: &mut Turn) -> SizeResult {
        if self.done {
            return SizeResult::default();
        }
        let c = self.c;
        let mut spaces = Spaces::new(&c.program);
        let mut generated = vec![None; c.vars.len()];
        for v in self.sched.generated() {
            match spaces.space(&c.vars[v].ty, turn.size) {
                Ok(s) if s.count() > 0 => generated[v] = Some(s.value(0)),
                // No value of this size yet: the next size.
                Ok(_) => return SizeResult::default(),
                Err(_) => return SizeResult { end: Some(End::TooBig), ..SizeResult::default() },
            }
        }
        self.done = true;
        let mut res = SizeResult { tests: 1, ..SizeResult::default() };
        let mut taint = None;
        for step in &self.sched.steps {
            let flow = match step {
                Step::Gen(v) => {
                    let value = generated[*v].clone().expect("a value for every generated variable");
                    self.r.set(*v, value, None);
                    Flow::Next
                }
                s => match run_step(&mut self.r, *s, &mut taint) {
                    Ok(flow) => flow,
                    Err(stop) => return SizeResult { end: Some(End::Stopped(stop)), ..res },
                },
            };
            match flow {
                Flow::Next => continue,
                Flow::Rejected => {}
                Flow::Passed => res.passed = 1,
                Flow::Failed(t) => {
                    res.passed = 1;
                    if turn.judge.keeps(t.is_some()) {
                        res.end = turn.judge.verdict(c, &self.sched, &generated);
                    }
                }
            }
            break;
        }
        res
    }
}
