//! The environment as bytes: an image of a checked theory's `Env`, so a process can start from
//! the prelude already checked, as Isabelle starts HOL from a heap image instead of its theory
//! sources. Checking `Main.thy` costs a `hol check` process about 18 M instructions (parsing
//! and type-checking every definition); decoding its image is a fraction of that.
//!
//! The encoding is hol's own, not a serialization crate's, for two reasons: it keeps the
//! sharing the checker builds (every `Arc<str>` name and every `Type` is written once and
//! referred to by number after, so decoding allocates each once, as checking did), and the
//! image never leaves the build that made it (a header names the text it was checked from,
//! and the format is read only by the code that wrote it), so no format needs to be stable.
//! Numbers are LEB128 varints.

use super::builtins::Builtin;
use super::env::{Env, NameRef, TypeRef};
use super::hir::*;
use super::ty::Type;
use crate::span::Span;
use num_bigint::BigInt;
use rustc_hash::FxHashMap;
use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};
use std::sync::Arc;

/// What opens every image, then the format's version.
const MAGIC: &[u8] = b"hol-env-image";
const VERSION: u64 = 2;

/// Why an image could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImageError(pub String);

impl std::fmt::Display for ImageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "unreadable environment image: {}", self.0)
    }
}

/// A fingerprint of the source text an image was checked from (Fx: the same on every run
/// and machine, unlike the standard library's hasher).
fn fingerprint(source: &str) -> u64 {
    let mut h = rustc_hash::FxHasher::default();
    source.hash(&mut h);
    h.finish()
}

/// The image of `env`, checked from the text `source`.
pub fn encode(env: &Env, source: &str) -> Vec<u8> {
    let mut w = Writer::default();
    w.out.extend_from_slice(MAGIC);
    w.uint(VERSION);
    w.uint(fingerprint(source));
    env.put(&mut w);
    w.out
}

/// The environment in `image`, which must have been checked from the text `source`.
pub fn decode(image: &[u8], source: &str) -> Result<Env, ImageError> {
    let mut r = Reader { bytes: image, at: 0, strs: Vec::new(), types: Vec::new() };
    if !image.starts_with(MAGIC) {
        return Err(ImageError("not an environment image".into()));
    }
    r.at = MAGIC.len();
    if r.uint()? != VERSION {
        return Err(ImageError("written in another version of the format".into()));
    }
    if r.uint()? != fingerprint(source) {
        return Err(ImageError("checked from another text than this one".into()));
    }
    let env = Env::get(&mut r)?;
    if r.at != image.len() {
        return Err(ImageError(format!("{} bytes left over", image.len() - r.at)));
    }
    Ok(env)
}

#[derive(Default)]
struct Writer {
    out: Vec<u8>,
    /// Names written so far, by text, with their numbers.
    strs: FxHashMap<Arc<str>, u64>,
    types: FxHashMap<Type, u64>,
}

impl Writer {
    fn uint(&mut self, mut n: u64) {
        loop {
            let byte = (n & 0x7f) as u8;
            n >>= 7;
            if n == 0 {
                self.out.push(byte);
                return;
            }
            self.out.push(byte | 0x80);
        }
    }

    /// A table entry: its number shifted left with the low bit clear if it was written
    /// before; otherwise 1, and the caller writes the new entry's content.
    fn seen(&mut self, number: Option<u64>) -> bool {
        match number {
            Some(n) => {
                self.uint(n << 1);
                true
            }
            None => {
                self.uint(1);
                false
            }
        }
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
    strs: Vec<Arc<str>>,
    types: Vec<Type>,
}

impl Reader<'_> {
    fn byte(&mut self) -> Result<u8, ImageError> {
        let b = *self.bytes.get(self.at).ok_or_else(|| ImageError("cut short".into()))?;
        self.at += 1;
        Ok(b)
    }

    fn uint(&mut self) -> Result<u64, ImageError> {
        let mut n = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            n |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(n);
            }
        }
        Err(ImageError("a number longer than 64 bits".into()))
    }

    fn len(&mut self) -> Result<usize, ImageError> {
        let n = self.uint()?;
        // Every element takes at least one byte: a longer count is a corrupt image, and
        // must not become a huge allocation.
        if n > (self.bytes.len() - self.at) as u64 {
            return Err(ImageError(format!("a count of {n} past the end")));
        }
        Ok(n as usize)
    }

    fn bytes(&mut self, n: usize) -> Result<&[u8], ImageError> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or_else(|| ImageError("cut short".into()))?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }

    /// A table reference: `Ok(Some(entry))` for one read before, `Ok(None)` when a new
    /// entry's content follows.
    fn seen<T: Clone>(&mut self, table: fn(&Self) -> &Vec<T>) -> Result<Option<T>, ImageError> {
        let n = self.uint()?;
        if n == 1 {
            return Ok(None);
        }
        let i = (n >> 1) as usize;
        table(self).get(i).cloned().map(Some).ok_or_else(|| ImageError(format!("entry {i} is not in its table")))
    }

    fn tag(&mut self, what: &str, n: u8) -> Result<u8, ImageError> {
        let t = self.byte()?;
        if t < n {
            Ok(t)
        } else {
            Err(ImageError(format!("{t} is not a tag of {what}")))
        }
    }
}

/// A value that has an image.
trait Image: Sized {
    fn put(&self, w: &mut Writer);
    fn get(r: &mut Reader) -> Result<Self, ImageError>;
}

impl Image for u64 {
    fn put(&self, w: &mut Writer) {
        w.uint(*self)
    }
    fn get(r: &mut Reader) -> Result<Self, ImageError> {
        r.uint()
    }
}

impl Image for u32 {
    fn put(&self, w: &mut Writer) {
        w.uint(u64::from(*self))
    }
    fn get(r: &mut Reader) -> Result<Self, ImageError> {
        u32::try_from(r.uint()?).map_err(|_| ImageError("a number past u32".into()))
    }
}

impl Image for usize {
    fn put(&self, w: &mut Writer) {
        w.uint(*self as u64)
    }
    fn get(r: &mut Reader) -> Result<Self, ImageError> {
        usize::try_from(r.uint()?).map_err(|_| ImageError("a number past usize".into()))
    }
}

impl Image for bool {
    fn put(&self, w: &mut Writer) {
        w.out.push(u8::from(*self))
    }
    fn get(r: &mut Reader) -> Result<Self, ImageError> {
        Ok(r.tag("bool", 2)? == 1)
    }
}

impl Image for Arc<str> {
    fn put(&self, w: &mut Writer) {
        let known = w.strs.get(self).copied();
        if !w.seen(known) {
            let n = w.strs.len() as u64;
            w.strs.insert(self.clone(), n);
            w.uint(self.len() as u64);
            w.out.extend_from_slice(self.as_bytes());
        }
    }
    fn get(r: &mut Reader) -> Result<Self, ImageError> {
        if let Some(s) = r.seen(|r| &r.strs)? {
            return Ok(s);
        }
        let n = r.len()?;
        let text = std::str::from_utf8(r.bytes(n)?).map_err(|_| ImageError("a name that is not UTF-8".into()))?;
        let s: Arc<str> = Arc::from(text);
        r.strs.push(s.clone());
        Ok(s)
    }
}

impl Image for Type {
    fn put(&self, w: &mut Writer) {
        let known = w.types.get(self).copied();
        if w.seen(known) {
            return;
        }
        match self {
            Type::Var(v) => {
                w.out.push(0);
                v.put(w);
            }
            Type::Param(p) => {
                w.out.push(1);
                p.put(w);
            }
            Type::Con(c, args) => {
                w.out.push(2);
                c.put(w);
                w.uint(args.len() as u64);
                args.iter().for_each(|a| a.put(w));
            }
        }
        // Numbered after its parts, as the reader numbers it.
        let n = w.types.len() as u64;
        w.types.insert(self.clone(), n);
    }
    fn get(r: &mut Reader) -> Result<Self, ImageError> {
        if let Some(t) = r.seen(|r| &r.types)? {
            return Ok(t);
        }
        let t = match r.tag("a type", 3)? {
            0 => Type::Var(u32::get(r)?),
            1 => Type::Param(Arc::get(r)?),
            _ => {
                let c = Arc::get(r)?;
                let n = r.len()?;
                let args = (0..n).map(|_| Type::get(r)).collect::<Result<Vec<_>, _>>()?;
                Type::Con(c, args.into())
            }
        };
        r.types.push(t.clone());
        Ok(t)
    }
}

impl Image for BigInt {
    fn put(&self, w: &mut Writer) {
        let bytes = self.to_signed_bytes_le();
        w.uint(bytes.len() as u64);
        w.out.extend_from_slice(&bytes);
    }
    fn get(r: &mut Reader) -> Result<Self, ImageError> {
        let n = r.len()?;
        Ok(BigInt::from_signed_bytes_le(r.bytes(n)?))
    }
}

impl<T: Image> Image for Vec<T> {
    fn put(&self, w: &mut Writer) {
        w.uint(self.len() as u64);
        self.iter().for_each(|x| x.put(w));
    }
    fn get(r: &mut Reader) -> Result<Self, ImageError> {
        let n = r.len()?;
        (0..n).map(|_| T::get(r)).collect()
    }
}

impl<T: Image> Image for Box<T> {
    fn put(&self, w: &mut Writer) {
        (**self).put(w)
    }
    fn get(r: &mut Reader) -> Result<Self, ImageError> {
        T::get(r).map(Box::new)
    }
}

impl<T: Image> Image for Arc<T> {
    fn put(&self, w: &mut Writer) {
        (**self).put(w)
    }
    fn get(r: &mut Reader) -> Result<Self, ImageError> {
        T::get(r).map(Arc::new)
    }
}

impl<T: Image> Image for Option<T> {
    fn put(&self, w: &mut Writer) {
        match self {
            None => w.out.push(0),
            Some(x) => {
                w.out.push(1);
                x.put(w);
            }
        }
    }
    fn get(r: &mut Reader) -> Result<Self, ImageError> {
        match r.tag("an option", 2)? {
            0 => Ok(None),
            _ => T::get(r).map(Some),
        }
    }
}

impl<A: Image, B: Image> Image for (A, B) {
    fn put(&self, w: &mut Writer) {
        self.0.put(w);
        self.1.put(w);
    }
    fn get(r: &mut Reader) -> Result<Self, ImageError> {
        Ok((A::get(r)?, B::get(r)?))
    }
}

/// Entries in key order, so that one text always gives one image.
impl<K: Image + Ord + Hash + Eq, V: Image> Image for HashMap<K, V> {
    fn put(&self, w: &mut Writer) {
        let mut entries: Vec<(&K, &V)> = self.iter().collect();
        entries.sort_by(|a, b| a.0.cmp(b.0));
        w.uint(entries.len() as u64);
        for (k, v) in entries {
            k.put(w);
            v.put(w);
        }
    }
    fn get(r: &mut Reader) -> Result<Self, ImageError> {
        let n = r.len()?;
        let mut map = HashMap::with_capacity(n);
        for _ in 0..n {
            let k = K::get(r)?;
            map.insert(k, V::get(r)?);
        }
        Ok(map)
    }
}

impl<K: Image + Ord + Hash + Eq> Image for HashSet<K> {
    fn put(&self, w: &mut Writer) {
        let mut keys: Vec<&K> = self.iter().collect();
        keys.sort();
        w.uint(keys.len() as u64);
        keys.into_iter().for_each(|k| k.put(w));
    }
    fn get(r: &mut Reader) -> Result<Self, ImageError> {
        let n = r.len()?;
        (0..n).map(|_| K::get(r)).collect()
    }
}

impl Image for Builtin {
    fn put(&self, w: &mut Writer) {
        w.out.push(*self as u8)
    }
    fn get(r: &mut Reader) -> Result<Self, ImageError> {
        let i = r.tag("a builtin", Builtin::ALL.len() as u8)?;
        Ok(Builtin::ALL[i as usize])
    }
}

/// `Image` for a struct, field by field.
macro_rules! struct_image {
    ($($t:ident { $($f:ident),* })*) => {$(
        impl Image for $t {
            fn put(&self, w: &mut Writer) {
                $(self.$f.put(w);)*
            }
            fn get(r: &mut Reader) -> Result<Self, ImageError> {
                Ok($t { $($f: Image::get(r)?),* })
            }
        }
    )*};
}

struct_image! {
    Span { start, end }
    Local { name, ty }
    Scheme { params, ty }
    Term { kind, ty, span }
    Pat { kind, ty, span }
    DataDecl { name, params, ctors, group }
    CtorDecl { name, fields }
    ConstDef { name, scheme, kind }
    HornClause { locals, args, premises }
    CodeEquations { locals, equations, lemmas }
    Env { consts, datas, names, types, shadows, datatype_names, code }
}

impl Image for ConstId {
    fn put(&self, w: &mut Writer) {
        self.0.put(w)
    }
    fn get(r: &mut Reader) -> Result<Self, ImageError> {
        u32::get(r).map(ConstId)
    }
}

impl Image for DataIdx {
    fn put(&self, w: &mut Writer) {
        self.0.put(w)
    }
    fn get(r: &mut Reader) -> Result<Self, ImageError> {
        u32::get(r).map(DataIdx)
    }
}

/// `Image` for an enum: a byte for the variant (its number here), then its fields in order.
macro_rules! enum_image {
    ($($t:ident, $what:literal {
        $($tag:literal => $v:ident $(($($f:ident),*))? $({$($g:ident),*})?),* $(,)?
    })*) => {$(
        impl Image for $t {
            fn put(&self, w: &mut Writer) {
                match self {
                    $($t::$v $(($($f),*))? $({$($g),*})? => {
                        w.out.push($tag);
                        $($($f.put(w);)*)?
                        $($($g.put(w);)*)?
                    })*
                }
            }
            fn get(r: &mut Reader) -> Result<Self, ImageError> {
                Ok(match r.byte()? {
                    $($tag => $t::$v $(($({ let _ = stringify!($f); Image::get(r)? }),*))? $({$($g: Image::get(r)?),*})?,)*
                    t => return Err(ImageError(format!("{t} is not a tag of {}", $what))),
                })
            }
        }
    )*};
}

enum_image! {
    Quant, "a quantifier" { 0 => All, 1 => Ex, 2 => Ex1 }
    TermKind, "a term" {
        0 => Local(l),
        1 => Const(c, tys),
        2 => Ctor(d, tag, tys),
        3 => Builtin(b),
        4 => Num(n),
        5 => App(f, x),
        6 => Lambda(l, body),
        7 => Let(l, t, body),
        8 => If(c, t, e),
        9 => Case(s, alts),
        10 => Quant(q, l, bound, body),
        11 => SetCompr(l, domain, body),
    }
    Bound, "a bound" { 0 => In(t), 1 => Less(t), 2 => LessEq(t) }
    PatKind, "a pattern" {
        0 => Var(l),
        1 => Wild,
        2 => Ctor(d, tag, subs),
        3 => Num(n),
        4 => Suc(p),
        5 => Bool(b),
    }
    ConstKind, "a constant's definition" {
        0 => Equations { locals, equations, arity },
        1 => Inductive { clauses },
    }
    NameRef, "a name" { 0 => Const(c), 1 => Ctor(d, tag), 2 => Builtin(b) }
    TypeRef, "a type name" { 0 => Base(arity), 1 => Data(d), 2 => Synonym(params, rhs) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtins_are_numbered_by_their_place() {
        for (i, b) in Builtin::ALL.iter().enumerate() {
            assert_eq!(*b as usize, i, "{b:?}");
        }
    }

    #[test]
    fn a_corrupt_image_is_an_error_not_a_panic() {
        let env = Env::default();
        let image = encode(&env, "text");
        assert_eq!(decode(&image, "text"), Ok(env));
        assert!(decode(&image, "other text").is_err());
        for cut in 0..image.len() {
            assert!(decode(&image[..cut], "text").is_err(), "cut at {cut}");
        }
        // Any byte past the header changed: read or refused, never a panic.
        for i in MAGIC.len() + 2..image.len() {
            let mut flipped = image.clone();
            flipped[i] ^= 0xff;
            let _ = decode(&flipped, "text");
        }
    }
}
