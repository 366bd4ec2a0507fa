//! Type classes as sorts: which classes exist, which type constructors are instances, and
//! what an instance asks of its arguments. Isabelle's numeric hierarchy is flattened: every
//! numeric class is met by `nat` and `int`, the ring-like ones only by `int`.

/// Classes that both `nat` and `int` belong to.
const NUMERIC: &[&str] = &[
    "zero",
    "one",
    "plus",
    "minus",
    "times",
    "divide",
    "modulo",
    "numeral",
    "power",
    "monoid_add",
    "comm_monoid_add",
    "semigroup_add",
    "ab_semigroup_add",
    "monoid_mult",
    "comm_monoid_mult",
    "semigroup_mult",
    "ab_semigroup_mult",
    "semiring",
    "semiring_0",
    "semiring_1",
    "comm_semiring",
    "comm_semiring_0",
    "comm_semiring_1",
    "semiring_gcd",
    "semidom_modulo",
    "semiring_modulo",
    "semidom",
    "semiring_div",
    "linordered_semidom",
    "ordered_comm_semiring",
    "linordered_semiring",
    "ordered_semiring",
    "cancel_comm_monoid_add",
    "ordered_ab_semigroup_add",
    "abs",
    "dvd",
    "gcd",
    "semiring_no_zero_divisors",
    "zero_neq_one",
    "wellorder",
    "range",
];

/// Classes only `int` belongs to.
const INT_ONLY: &[&str] = &[
    "uminus",
    "ring",
    "ring_1",
    "comm_ring",
    "comm_ring_1",
    "idom",
    "linordered_idom",
    "linordered_ring",
    "ab_group_add",
    "group_add",
    "sgn",
    "ordered_ab_group_add",
    "ring_gcd",
    "idom_modulo",
    "linordered_ring_strict",
];

/// Order classes: every type here but functions belongs, datatypes when their arguments do.
const ORDER: &[&str] = &["ord", "linorder", "order", "preorder"];

/// Isabelle's class `size`: `nat` (`size n = n`), `bool` and every datatype (the datatype
/// package defines `size` for each); not `int`, sets or functions.
const SIZE: &str = "size";

/// Classes every type belongs to.
const UNIVERSAL: &[&str] = &["type", "equal", "HOL.equal"];

pub fn is_class(name: &str) -> bool {
    NUMERIC.contains(&name)
        || INT_ONLY.contains(&name)
        || ORDER.contains(&name)
        || UNIVERSAL.contains(&name)
        || name == SIZE
}

/// Whether every type of sort `have` belongs to class `need`, in the flattened hierarchy:
/// the order classes hold of the same types, and a numeric sort admits only `nat` and `int`.
pub fn sort_implies(have: &[std::sync::Arc<str>], need: &str) -> bool {
    let any_of = |set: &[&str]| have.iter().any(|c| set.contains(&&**c));
    UNIVERSAL.contains(&need)
        || have.iter().any(|c| &**c == need)
        || (ORDER.contains(&need) && any_of(ORDER))
        || (NUMERIC.contains(&need) && (any_of(NUMERIC) || any_of(INT_ONLY)))
        || (INT_ONLY.contains(&need) && any_of(INT_ONLY))
}

/// What `tycon :: (s1, ..., sn) class` asks of the constructor's arguments, or `None` when
/// `tycon` is not an instance of `class`. `is_datatype` says whether `tycon` is a datatype.
pub fn instance(tycon: &str, arity: usize, class: &str, is_datatype: bool) -> Option<Vec<Vec<&'static str>>> {
    if UNIVERSAL.contains(&class) {
        return Some(vec![vec![]; arity]);
    }
    let none = || vec![vec![]; arity];
    if class == SIZE {
        // A datatype's size asks nothing of its arguments: the overloaded size counts
        // their values as 0 (`size (Some x) = 1` at any type).
        return (tycon == "nat" || tycon == "bool" || is_datatype).then(none);
    }
    match tycon {
        "nat" => (NUMERIC.contains(&class) || ORDER.contains(&class)).then(none),
        "int" => (NUMERIC.contains(&class) || INT_ONLY.contains(&class) || ORDER.contains(&class)).then(none),
        "bool" => ORDER.contains(&class).then(none),
        // Sets are ordered by inclusion (not linearly) and have difference and complement.
        "set" => matches!(class, "ord" | "order" | "preorder" | "minus" | "uminus").then(none),
        "fun" => None,
        _ if is_datatype => {
            let class: &'static str = ORDER.iter().find(|c| **c == class)?;
            Some(vec![vec![class]; arity])
        }
        _ => None,
    }
}
