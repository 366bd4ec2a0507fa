//! Span → text: the source text events quote (a `value`'s term, a lemma's statement, a
//! quickcheck command, an evaluated subterm), taken from the file's text by `lang`'s byte
//! spans. Spans come from a library this crate does not control: every helper clamps them
//! to the text and to character boundaries instead of panicking.

use lang::Span;

/// The text of `span`, clamped to `text` and its character boundaries.
pub fn slice(text: &str, span: Span) -> &str {
    let floor = |mut i: usize| {
        i = i.min(text.len());
        while !text.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    let (a, b) = (floor(span.start as usize), floor(span.end as usize));
    &text[a.min(b)..a.max(b)]
}

/// The term text of `span`, without the quotes or cartouche around it if the span has them.
pub fn term_text(text: &str, span: Span) -> &str {
    let t = slice(text, span).trim();
    for (open, close) in [("\"", "\""), ("‹", "›")] {
        if let Some(inner) = t.strip_prefix(open).and_then(|t| t.strip_suffix(close)) {
            return inner.trim();
        }
    }
    t
}

/// Whitespace runs (newlines included) as single spaces: one-line display text.
pub fn collapse(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The source text of a subterm, with the parentheses its span stops short of (`f (g x` is
/// shown as `f (g x)`, `f :: nat ⇒ nat) x` as `(f :: nat ⇒ nat) x`), and without quotes
/// around a whole statement.
pub fn balanced(text: &str, span: Span) -> String {
    let mut t = term_text(text, span).to_owned();
    // Closers with no opener inside the span need openers before it; openers left open need
    // closers after it.
    let (mut depth, mut unopened) = (0usize, 0usize);
    for c in t.chars() {
        match c {
            '(' => depth += 1,
            ')' if depth == 0 => unopened += 1,
            ')' => depth -= 1,
            _ => {}
        }
    }
    let mut before = text.get(..span.start as usize).unwrap_or("").chars().rev();
    while unopened > 0 {
        match before.next() {
            Some('(') => {
                t.insert(0, '(');
                unopened -= 1;
            }
            Some(c) if c.is_whitespace() => {}
            _ => break,
        }
    }
    let mut after = text.get(span.end as usize..).unwrap_or("").chars();
    while depth > 0 {
        match after.next() {
            Some(')') => {
                t.push(')');
                depth -= 1;
            }
            Some(c) if c.is_whitespace() => {}
            _ => break,
        }
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn term_text_drops_quotes_and_cartouches() {
        let text = "value \"rev [1, 2]\"  value ‹x + 1›  value y";
        let find = |s: &str| {
            let i = text.find(s).unwrap();
            Span::new(i, i + s.len())
        };
        assert_eq!(term_text(text, find("\"rev [1, 2]\"")), "rev [1, 2]");
        assert_eq!(term_text(text, find("rev [1, 2]")), "rev [1, 2]");
        assert_eq!(term_text(text, find("‹x + 1›")), "x + 1");
        assert_eq!(term_text(text, find("y")), "y");
    }

    #[test]
    fn slices_survive_bad_spans() {
        assert_eq!(slice("a⟹b", Span::new(2, 4)), "⟹");
        assert_eq!(slice("a⟹b", Span::new(2, 5)), "⟹b");
        assert_eq!(slice("ab", Span::new(5, 1)), "b");
    }

    #[test]
    fn collapse_makes_one_line() {
        assert_eq!(collapse("  a\n   b\r\n\tc "), "a b c");
    }

    #[test]
    fn subterm_text_gets_its_closing_parentheses() {
        let text = "lemma \"f (g x) = g (f (x))\"";
        let at = |s: &str, len: usize| {
            let i = text.find(s).unwrap();
            Span::new(i, i + len)
        };
        assert_eq!(balanced(text, at("f (g x)", 6)), "f (g x)");
        assert_eq!(balanced(text, at("g (f (x))", 7)), "g (f (x))");
        assert_eq!(balanced(text, at("f (g x)", 1)), "f");
        let typed = "lemma \"(f :: nat ⇒ nat) x = x\"";
        let i = typed.find("f ::").unwrap();
        let j = typed.find(") x").unwrap() + 3;
        assert_eq!(balanced(typed, Span::new(i, j)), "(f :: nat ⇒ nat) x");
        let both = "lemma \"(f :: nat ⇒ nat) (g x) = x\"";
        let i = both.find("f ::").unwrap();
        let j = both.find("g x").unwrap() + 3;
        assert_eq!(balanced(both, Span::new(i, j)), "(f :: nat ⇒ nat) (g x)");
    }
}
