//! Hindley–Milner inference state: a substitution over inference variables with a sort per
//! variable, and order-sorted unification (binding a variable to a constructor checks the
//! instance and pushes the class requirements onto the constructor's arguments).

use super::classes;
use super::ty::{Sort, Type};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UnifyError {
    /// The two (resolved) types cannot be made equal.
    Mismatch,
    /// The type is not of the class.
    NoInstance(Type, Arc<str>),
    /// A variable would have to contain itself.
    Occurs,
}

#[derive(Clone)]
pub struct Infer {
    subst: Vec<Option<Type>>,
    sorts: Vec<Sort>,
    /// Sorts of the fixed type variables (`Type::Param`) in scope.
    pub param_sorts: HashMap<Arc<str>, Sort>,
    /// Names of the datatypes in scope (instances of the order classes).
    pub datatypes: Arc<HashSet<Arc<str>>>,
}

impl Infer {
    pub fn new(datatypes: Arc<HashSet<Arc<str>>>) -> Infer {
        Infer { subst: Vec::new(), sorts: Vec::new(), param_sorts: HashMap::new(), datatypes }
    }

    pub fn fresh(&mut self, sort: Sort) -> Type {
        self.subst.push(None);
        self.sorts.push(sort);
        Type::Var(self.subst.len() as u32 - 1)
    }

    pub fn sort_of_var(&self, v: u32) -> &Sort {
        &self.sorts[v as usize]
    }

    /// Follows variable bindings at the top only. A borrow, not a copy: walks over a type
    /// (`resolve`, `occurs`, finalizing) call this at every node, and a copy of the subtree
    /// at each made them quadratic in the type's depth (a list literal nested 999 deep took
    /// 3 s and 436 MB).
    pub fn shallow<'a>(&'a self, t: &'a Type) -> &'a Type {
        let mut t = t;
        while let Type::Var(v) = t {
            match &self.subst[*v as usize] {
                Some(u) => t = u,
                None => break,
            }
        }
        t
    }

    /// What inference variable `v` is bound to, if anything.
    pub fn binding(&self, v: u32) -> Option<&Type> {
        self.subst.get(v as usize).and_then(Option::as_ref)
    }

    /// Applies the substitution everywhere. The result for each variable is computed once
    /// and shared, so a type built by doubling stays as small as the variables that built it.
    pub fn resolve(&self, t: &Type) -> Type {
        fn go(inf: &Infer, t: &Type, memo: &mut HashMap<u32, Type>) -> Type {
            match t {
                Type::Var(v) => {
                    if let Some(done) = memo.get(v) {
                        return done.clone();
                    }
                    let done = match &inf.subst[*v as usize] {
                        Some(u) => go(inf, u, memo),
                        None => t.clone(),
                    };
                    memo.insert(*v, done.clone());
                    done
                }
                Type::Con(c, args) => Type::Con(c.clone(), args.iter().map(|a| go(inf, a, memo)).collect()),
                Type::Param(_) => t.clone(),
            }
        }
        go(self, t, &mut HashMap::new())
    }

    /// Whether `v` occurs in `t`. Each bound variable is looked through once: inference
    /// shares types through variables, and a type that doubles at each step (`dup (dup x)`)
    /// is exponentially larger as a tree than as the variables that build it.
    /// The variables looked through are marked in a bitmap rather than hashed: the check
    /// runs at every binding, over the whole type, and hashing was most of the time spent
    /// checking a tuple of 5,000 `None`s.
    fn occurs(&self, v: u32, t: &Type) -> bool {
        fn go(inf: &Infer, v: u32, t: &Type, seen: &mut [u64]) -> bool {
            let mut t = t;
            while let Type::Var(w) = t {
                if *w == v {
                    return true;
                }
                let (word, bit) = (*w as usize / 64, 1u64 << (*w % 64));
                if seen[word] & bit != 0 {
                    return false;
                }
                seen[word] |= bit;
                match &inf.subst[*w as usize] {
                    Some(u) => t = u,
                    None => return false,
                }
            }
            match t {
                Type::Con(_, args) => args.iter().any(|a| go(inf, v, a, seen)),
                Type::Var(_) | Type::Param(_) => false,
            }
        }
        go(self, v, t, &mut vec![0; self.subst.len().div_ceil(64)])
    }

    pub fn unify(&mut self, a: &Type, b: &Type) -> Result<(), UnifyError> {
        let a = self.shallow(a).clone();
        let b = self.shallow(b).clone();
        match (&a, &b) {
            (Type::Var(v), Type::Var(w)) if v == w => Ok(()),
            (Type::Var(v), _) => self.bind(*v, &b),
            (_, Type::Var(w)) => self.bind(*w, &a),
            (Type::Param(p), Type::Param(q)) if p == q => Ok(()),
            (Type::Con(c, xs), Type::Con(d, ys)) if c == d && xs.len() == ys.len() => {
                for (x, y) in xs.iter().zip(ys.iter()) {
                    self.unify(x, y)?;
                }
                Ok(())
            }
            _ => Err(UnifyError::Mismatch),
        }
    }

    fn bind(&mut self, v: u32, t: &Type) -> Result<(), UnifyError> {
        if self.occurs(v, t) {
            return Err(UnifyError::Occurs);
        }
        let sort = std::mem::take(&mut self.sorts[v as usize]);
        self.subst[v as usize] = Some(t.clone());
        for class in &sort {
            self.require(t, class)?;
        }
        Ok(())
    }

    /// Makes `t` a member of `class`, or says why it cannot be.
    pub fn require(&mut self, t: &Type, class: &Arc<str>) -> Result<(), UnifyError> {
        match self.shallow(t).clone() {
            Type::Var(v) => {
                let sort = &mut self.sorts[v as usize];
                if !sort.contains(class) {
                    sort.push(class.clone());
                }
                Ok(())
            }
            Type::Param(p) => {
                let sort = self.param_sorts.get(&p).cloned().unwrap_or_default();
                if sort_implies(&sort, class) {
                    Ok(())
                } else {
                    Err(UnifyError::NoInstance(Type::Param(p), class.clone()))
                }
            }
            Type::Con(c, args) => {
                let is_data = self.datatypes.contains(&c);
                match classes::instance(&c, args.len(), class, is_data) {
                    Some(reqs) => {
                        for (arg, req) in args.iter().zip(reqs) {
                            for cl in req {
                                self.require(arg, &Arc::from(cl))?;
                            }
                        }
                        Ok(())
                    }
                    None => Err(UnifyError::NoInstance(self.resolve(&Type::Con(c, args)), class.clone())),
                }
            }
        }
    }
}

/// Whether a fixed type variable of sort `sort` is of `class`: the class is in the sort, or
/// every base type that meets some class of the sort also meets `class` (a flattened view of
/// Isabelle's class hierarchy: `linorder` gives `ord`, `comm_monoid_add` gives `plus`).
pub fn sort_implies(sort: &Sort, class: &str) -> bool {
    if sort.iter().any(|c| &**c == class) || is_universal(class) {
        return true;
    }
    let bases: [(&str, bool); 5] = [("nat", false), ("int", false), ("bool", false), ("set", false), ("unit", true)];
    sort.iter().any(|have| {
        let members: Vec<_> = bases.iter().filter(|(t, d)| classes::instance(t, 0, have, *d).is_some()).collect();
        !members.is_empty() && members.iter().all(|(t, d)| classes::instance(t, 0, class, *d).is_some())
    })
}

fn is_universal(class: &str) -> bool {
    classes::instance("fun", 2, class, false).is_some()
}
