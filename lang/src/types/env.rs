//! The global environment of a theory: datatypes, type synonyms and constants defined so far
//! (the prelude's first), and what each name currently refers to. A later definition of the
//! same name shadows the earlier one for what follows; terms already checked keep pointing at
//! the constant they meant (they hold ids, not names).

use super::builtins::{self, Builtin};
use super::hir::{CodeEquations, ConstDef, ConstId, DataDecl, DataIdx, Scheme};
use super::ty::{Sort, Type};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// What a term-level name refers to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameRef {
    Const(ConstId),
    Ctor(DataIdx, u32),
    Builtin(Builtin),
}

/// What a type name refers to.
#[derive(Clone, Debug, PartialEq)]
pub enum TypeRef {
    /// `bool`, `nat`, `int`, `set` (and `fun` via `⇒`), with their arity.
    Base(usize),
    Data(DataIdx),
    /// Parameters and right-hand side (over `Type::Param`).
    Synonym(Vec<Arc<str>>, Type),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Env {
    pub consts: Vec<Arc<ConstDef>>,
    pub datas: Vec<Arc<DataDecl>>,
    pub names: HashMap<Arc<str>, NameRef>,
    pub types: HashMap<Arc<str>, TypeRef>,
    /// Type names a theory's own type hides (Isabelle's `datatype 'a list` in a theory that
    /// imports Main): the name as written, and the name of the type it now means in `types`
    /// (`mylist.list`). The hidden type keeps its name, so the notation that builds it
    /// (`[]`, `x # xs`) and everything checked before still mean it.
    pub shadows: HashMap<Arc<str>, Arc<str>>,
    pub datatype_names: Arc<HashSet<Arc<str>>>,
    /// Code equations (`[code]` lemmas) of constants that have some.
    pub code: HashMap<ConstId, Arc<CodeEquations>>,
}

impl Default for Env {
    fn default() -> Env {
        let mut env = Env {
            consts: Vec::new(),
            datas: Vec::new(),
            names: HashMap::new(),
            types: HashMap::new(),
            shadows: HashMap::new(),
            datatype_names: Arc::new(HashSet::new()),
            code: HashMap::new(),
        };
        for (name, b) in builtins::NAMED {
            env.names.insert(Arc::from(*name), NameRef::Builtin(*b));
        }
        for (name, arity) in [("bool", 0), ("nat", 0), ("int", 0), ("set", 1)] {
            env.types.insert(Arc::from(name), TypeRef::Base(arity));
        }
        env
    }
}

/// The entries of an environment a command may change, as they were before it, to take the
/// command back if it fails: copying the whole environment before each command instead made
/// a file of n datatypes cost n² (40,000 one-line datatypes took 69 s).
#[derive(Debug)]
pub struct Saved {
    consts: usize,
    datas: usize,
    names: Vec<(Arc<str>, Option<NameRef>)>,
    /// With whether the name was among `datatype_names`.
    types: Vec<(Arc<str>, Option<TypeRef>, bool)>,
    /// The whole map (a few entries at most).
    shadows: HashMap<Arc<str>, Arc<str>>,
}

impl Env {
    /// Saves what a command may change that defines constants, constructors and datatypes:
    /// the entries of the type names `types` and the term names `names`; the constants and
    /// datatypes it appends are taken back by length.
    pub fn save<'a>(
        &self,
        types: impl IntoIterator<Item = &'a str>,
        names: impl IntoIterator<Item = &'a str>,
    ) -> Saved {
        Saved {
            consts: self.consts.len(),
            datas: self.datas.len(),
            names: names.into_iter().map(|n| (Arc::from(n), self.names.get(n).copied())).collect(),
            types: types
                .into_iter()
                .map(|t| (Arc::from(t), self.types.get(t).cloned(), self.datatype_names.contains(t)))
                .collect(),
            shadows: self.shadows.clone(),
        }
    }

    /// Puts back what `save` saved, undoing what the command did since.
    pub fn restore(&mut self, saved: Saved) {
        self.consts.truncate(saved.consts);
        self.datas.truncate(saved.datas);
        for (name, old) in saved.names {
            match old {
                Some(r) => self.names.insert(name, r),
                None => self.names.remove(&name),
            };
        }
        self.shadows = saved.shadows;
        for (name, old, datatype) in saved.types {
            if !datatype && self.datatype_names.contains(&name) {
                Arc::make_mut(&mut self.datatype_names).remove(&name);
            }
            match old {
                Some(r) => self.types.insert(name, r),
                None => self.types.remove(&name),
            };
        }
    }

    pub fn konst(&self, id: ConstId) -> &ConstDef {
        &self.consts[id.0 as usize]
    }

    pub fn data(&self, id: DataIdx) -> &DataDecl {
        &self.datas[id.0 as usize]
    }

    pub fn data_by_name(&self, name: &str) -> Option<DataIdx> {
        match self.types.get(name) {
            Some(TypeRef::Data(d)) => Some(*d),
            _ => None,
        }
    }

    /// The constructor `ctor` of the datatype `data` (both prelude names such as `list`/`Cons`).
    pub fn ctor(&self, data: &str, ctor: &str) -> Option<(DataIdx, u32)> {
        let d = self.data_by_name(data)?;
        let tag = self.data(d).ctors.iter().position(|c| &*c.name == ctor)?;
        Some((d, tag as u32))
    }

    pub fn add_const(&mut self, def: ConstDef) -> ConstId {
        let id = ConstId(self.consts.len() as u32);
        self.names.insert(def.name.clone(), NameRef::Const(id));
        self.consts.push(Arc::new(def));
        id
    }

    pub fn add_data(&mut self, decl: DataDecl) -> DataIdx {
        let id = DataIdx(self.datas.len() as u32);
        for (tag, c) in decl.ctors.iter().enumerate() {
            self.names.insert(c.name.clone(), NameRef::Ctor(id, tag as u32));
        }
        self.types.insert(decl.name.clone(), TypeRef::Data(id));
        Arc::make_mut(&mut self.datatype_names).insert(decl.name.clone());
        self.datas.push(Arc::new(decl));
        id
    }

    /// The type scheme of a constructor: `fields ⇒ (params) data`.
    pub fn ctor_scheme(&self, d: DataIdx, tag: u32) -> Scheme {
        let decl = self.data(d);
        let result = Type::Con(decl.name.clone(), decl.params.iter().map(|p| Type::Param(p.clone())).collect());
        let fields = decl.ctors[tag as usize].fields.clone();
        Scheme {
            params: decl.params.iter().map(|p| (p.clone(), Sort::new())).collect(),
            ty: Type::curried(fields, result),
        }
    }

    /// Every term-level name, for "did you mean" suggestions.
    pub fn all_names(&self) -> impl Iterator<Item = &str> {
        self.names.keys().map(|k| &**k)
    }
}
