//! Types as the checker sees them: inference variables, constructors applied to arguments,
//! and fixed (rigid) type variables of a signature. Also their printing in Isabelle syntax.

use std::collections::HashMap;
use std::fmt::Write;
use std::sync::Arc;

/// A set of class names, e.g. `{linorder}`; empty means any type.
pub type Sort = Vec<Arc<str>>;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    /// An inference variable, resolved through the `Infer` substitution.
    Var(u32),
    /// A type variable named in a signature (`'a`), fixed while checking that definition and
    /// instantiated with fresh variables at every use of the constant.
    Param(Arc<str>),
    /// `bool`, `nat`, `int`, `fun` (2 args), `set` (1 arg), or a datatype name. The
    /// arguments are shared: every subterm carries its type, and a copy per subterm made
    /// the types of a term nested n deep cost n² (a list literal nested 999 deep took 3 s
    /// and 436 MB); shared, a clone costs one count.
    Con(Arc<str>, Arc<[Type]>),
}

pub const BOOL: &str = "bool";
pub const NAT: &str = "nat";
pub const INT: &str = "int";
pub const FUN: &str = "fun";
pub const SET: &str = "set";
pub const LIST: &str = "list";
pub const PROD: &str = "prod";
pub const OPTION: &str = "option";
pub const SUM: &str = "sum";
pub const UNIT: &str = "unit";

impl Type {
    pub fn con(name: &str, args: Vec<Type>) -> Type {
        Type::Con(Arc::from(name), args.into())
    }
    pub fn bool() -> Type {
        Type::con(BOOL, vec![])
    }
    pub fn nat() -> Type {
        Type::con(NAT, vec![])
    }
    pub fn int() -> Type {
        Type::con(INT, vec![])
    }
    pub fn fun(a: Type, b: Type) -> Type {
        Type::con(FUN, vec![a, b])
    }
    pub fn set(a: Type) -> Type {
        Type::con(SET, vec![a])
    }
    pub fn list(a: Type) -> Type {
        Type::con(LIST, vec![a])
    }
    pub fn prod(a: Type, b: Type) -> Type {
        Type::con(PROD, vec![a, b])
    }
    pub fn param(name: &str) -> Type {
        Type::Param(Arc::from(name))
    }

    /// `a ⇒ b ⇒ c` from `[a, b]` and `c`.
    pub fn curried(args: Vec<Type>, res: Type) -> Type {
        args.into_iter().rev().fold(res, |acc, a| Type::fun(a, acc))
    }

    /// `a ⇒ b` as `(a, b)`.
    pub fn as_fun(&self) -> Option<(&Type, &Type)> {
        match self {
            Type::Con(c, xs) if &**c == FUN && xs.len() == 2 => Some((&xs[0], &xs[1])),
            _ => None,
        }
    }

    pub fn is_con(&self, name: &str) -> bool {
        matches!(self, Type::Con(n, _) if &**n == name)
    }

    /// Whether the type, written out as a tree, has more than `limit` nodes. Counting stops
    /// at the limit, so the answer costs at most `limit` steps even for a type whose shared
    /// representation is exponentially smaller than its tree.
    pub fn larger_than(&self, limit: usize) -> bool {
        fn count(t: &Type, left: &mut usize) -> bool {
            if *left == 0 {
                return true;
            }
            *left -= 1;
            match t {
                Type::Con(_, args) => args.iter().any(|a| count(a, left)),
                Type::Var(_) | Type::Param(_) => false,
            }
        }
        let mut left = limit;
        count(self, &mut left)
    }

    /// Replaces `Param`s by the given types.
    pub fn subst_params(&self, map: &HashMap<Arc<str>, Type>) -> Type {
        match self {
            Type::Param(p) => map.get(p).cloned().unwrap_or_else(|| self.clone()),
            Type::Var(_) => self.clone(),
            Type::Con(c, args) => Type::Con(c.clone(), args.iter().map(|a| a.subst_params(map)).collect()),
        }
    }

    pub fn params(&self, out: &mut Vec<Arc<str>>) {
        match self {
            Type::Param(p) => {
                if !out.contains(p) {
                    out.push(p.clone())
                }
            }
            Type::Var(_) => {}
            Type::Con(_, args) => args.iter().for_each(|a| a.params(out)),
        }
    }
}

/// How much of a type `TypePrinter::print` writes out (bytes).
const MAX_PRINTED_TYPE: usize = 2_000;

/// Prints types in Isabelle syntax; inference variables are named `'a`, `'b`, ... in order of
/// first appearance, so two types printed with one printer share names.
#[derive(Default)]
pub struct TypePrinter {
    names: HashMap<u32, String>,
}

impl TypePrinter {
    pub fn print(&mut self, t: &Type) -> String {
        let mut s = String::new();
        self.go(t, 0, &mut s);
        if s.len() > MAX_PRINTED_TYPE {
            s.truncate(s.floor_char_boundary(MAX_PRINTED_TYPE));
            s.push_str(" …");
        }
        s
    }

    fn var_name(&mut self, v: u32) -> String {
        let n = self.names.len();
        self.names
            .entry(v)
            .or_insert_with(|| {
                let letter = (b'a' + (n % 26) as u8) as char;
                if n < 26 {
                    format!("'{letter}")
                } else {
                    format!("'{letter}{}", n / 26)
                }
            })
            .clone()
    }

    /// `prec`: 0 top, 1 left of ⇒, 2 inside ×/+, 3 argument of a postfix constructor.
    fn go(&mut self, t: &Type, prec: u8, out: &mut String) {
        // A type shared as a DAG can be exponentially long as text: stop once the message
        // is longer than anyone reads (`print` cuts it and marks the cut).
        if out.len() > MAX_PRINTED_TYPE {
            return;
        }
        match t {
            Type::Var(v) => {
                let n = self.var_name(*v);
                out.push_str(&n)
            }
            Type::Param(p) => out.push_str(p),
            Type::Con(c, args) if &**c == FUN && args.len() == 2 => {
                if prec > 0 {
                    out.push('(');
                }
                self.go(&args[0], 1, out);
                out.push_str(" ⇒ ");
                self.go(&args[1], 0, out);
                if prec > 0 {
                    out.push(')');
                }
            }
            Type::Con(c, args) if (&**c == PROD || &**c == SUM) && args.len() == 2 => {
                if prec > 1 {
                    out.push('(');
                }
                self.go(&args[0], 2, out);
                out.push_str(if &**c == PROD { " × " } else { " + " });
                self.go(&args[1], 1, out);
                if prec > 1 {
                    out.push(')');
                }
            }
            Type::Con(c, args) if let Some(record) = record_type(c, args) => self.go(&record, prec, out),
            Type::Con(c, args) => match args.len() {
                0 => out.push_str(c),
                1 => {
                    self.go(&args[0], 3, out);
                    let _ = write!(out, " {c}");
                }
                _ => {
                    out.push('(');
                    for (i, a) in args.iter().enumerate() {
                        if i > 0 {
                            out.push_str(", ");
                        }
                        self.go(a, 0, out);
                    }
                    let _ = write!(out, ") {c}");
                }
            },
        }
    }
}

/// A record's type as Isabelle shows it: its extension datatypes (`syntax::record_commands`,
/// named `…_ext`; Isabelle reserves those names for records), each holding the next as its
/// last argument, are `'a cpoint` when the innermost holds `unit`, and `('a, 'z)
/// cpoint_scheme` otherwise. `None` for any other type.
fn record_type(c: &str, args: &[Type]) -> Option<Type> {
    let mut name = c.strip_suffix("_ext")?;
    let (mut rest, mut own) = args.split_last()?;
    while let Type::Con(c, args) = rest {
        let (Some(inner), Some((more, inner_own))) = (c.strip_suffix("_ext"), args.split_last()) else { break };
        (name, rest, own) = (inner, more, inner_own);
    }
    Some(match rest {
        Type::Con(u, none) if &**u == "unit" && none.is_empty() => Type::con(name, own.to_vec()),
        _ => Type::con(&format!("{name}_scheme"), own.iter().chain([rest]).cloned().collect()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Records print as Isabelle prints them, extensions and schemes included.
    #[test]
    fn records_print_by_their_names() {
        let ext = |n: &str, args: Vec<Type>| Type::con(n, args);
        let unit = Type::con("unit", vec![]);
        let point = ext("point_ext", vec![unit.clone()]);
        let cpoint = ext("point_ext", vec![ext("cpoint_ext", vec![Type::nat(), unit])]);
        let scheme = ext("point_ext", vec![ext("cpoint_ext", vec![Type::nat(), Type::Param("'z".into())])]);
        let show = |t: &Type| TypePrinter::default().print(t);
        assert_eq!(show(&point), "point");
        assert_eq!(show(&cpoint), "nat cpoint");
        assert_eq!(show(&scheme), "(nat, 'z) cpoint_scheme");
        assert_eq!(
            show(&Type::con(FUN, vec![cpoint.clone(), Type::con("list", vec![point])])),
            "nat cpoint ⇒ point list"
        );
    }

    /// `nat × nat`, doubled `n` times, shared: 2^(n+1) - 1 nodes as a tree.
    fn doubled(n: u32) -> Type {
        (0..n).fold(Type::nat(), |t, _| Type::con(PROD, vec![t.clone(), t]))
    }

    #[test]
    fn size_is_counted_as_a_tree_and_stops_at_the_limit() {
        assert!(!doubled(3).larger_than(15));
        assert!(doubled(3).larger_than(14));
        // 2^61 nodes as a tree: the answer must come without walking them.
        assert!(doubled(60).larger_than(10_000));
    }

    #[test]
    fn printing_a_huge_shared_type_is_cut() {
        let shown = TypePrinter::default().print(&doubled(60));
        assert!(shown.len() <= MAX_PRINTED_TYPE + " …".len(), "{}", shown.len());
        assert!(shown.ends_with(" …"));
        assert_eq!(TypePrinter::default().print(&doubled(1)), "nat × nat");
    }
}
