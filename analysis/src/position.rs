//! Byte offsets → line/column: the one place that converts `lang`'s byte spans into
//! positions people and tools read (the binary's renderers, an editor). Events carry spans;
//! positions are computed only at the edges. Lines are 1-based; columns are 1-based and
//! counted in characters (Unicode scalar values), as the JSON records promise. A `\r`
//! before a `\n` is part of the line it ends, so CRLF files get the same line numbers as
//! LF files. Offsets past the end or inside a multi-byte character are clamped, never a
//! panic: spans come from a library we do not control.

use line_index::{LineIndex, TextSize, WideEncoding};

/// How columns are counted: characters for people and JSON, UTF-16 code units or bytes for
/// editors (LSP's `positionEncoding`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Columns {
    Chars,
    Utf16,
    Utf8,
}

/// A 1-based line and a 1-based column in characters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    pub line: u32,
    pub column: u32,
}

/// Line starts of one text, for repeated conversions.
#[derive(Debug)]
pub struct LineMap {
    index: LineIndex,
    /// Where each line's text ends, before its `\n` or `\r\n`.
    ends: Vec<u32>,
}

impl LineMap {
    pub fn new(text: &str) -> LineMap {
        let mut ends: Vec<u32> = Vec::new();
        for (i, _) in text.match_indices('\n') {
            let cr = text.as_bytes().get(i.wrapping_sub(1)) == Some(&b'\r');
            ends.push((i - usize::from(cr)) as u32);
        }
        ends.push(text.len() as u32);
        LineMap { index: LineIndex::new(text), ends }
    }

    /// The position of byte `offset`: clamped to the end of the text, and moved back to the
    /// start of the character when it points inside one.
    pub fn position(&self, offset: u32) -> Position {
        self.position_in(offset, Columns::Chars)
    }

    /// `position` with columns counted as `columns` says (still 1-based).
    pub fn position_in(&self, offset: u32, columns: Columns) -> Position {
        let mut offset = offset.min(u32::from(self.index.len()));
        // A UTF-8 character is at most 4 bytes, so at most 3 steps back reach its start;
        // offset 0 always converts.
        let line_col = loop {
            if let Some(lc) = self.index.try_line_col(TextSize::from(offset)) {
                break lc;
            }
            offset = offset.saturating_sub(1);
        };
        let wide = |e| self.index.to_wide(e, line_col).map_or(line_col.col, |wide| wide.col);
        let column = match columns {
            Columns::Chars => wide(WideEncoding::Utf32),
            Columns::Utf16 => wide(WideEncoding::Utf16),
            Columns::Utf8 => line_col.col,
        };
        Position { line: line_col.line + 1, column: column + 1 }
    }

    /// The byte offset of a 1-based `position` whose column counts as `columns` say (an
    /// editor's cursor): a line past the end is the end of the text, a column past the end
    /// of its line is the end of that line.
    pub fn offset_in(&self, position: Position, columns: Columns) -> u32 {
        let line = position.line.saturating_sub(1);
        let (Some(range), Some(&end)) = (self.index.line(line), self.ends.get(line as usize)) else {
            return u32::from(self.index.len());
        };
        let wide = line_index::WideLineCol { line, col: position.column.saturating_sub(1) };
        let col = match columns {
            Columns::Chars => self.index.to_utf8(WideEncoding::Utf32, wide).map(|lc| lc.col),
            Columns::Utf16 => self.index.to_utf8(WideEncoding::Utf16, wide).map(|lc| lc.col),
            Columns::Utf8 => Some(wide.col),
        };
        col.map_or(end, |col| u32::from(range.start()).saturating_add(col).min(end))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(text: &str, offset: usize) -> (u32, u32) {
        let p = LineMap::new(text).position(offset as u32);
        (p.line, p.column)
    }

    #[test]
    fn columns_count_characters_utf16_units_or_bytes() {
        // `𝔄` is 4 bytes, 2 UTF-16 units, 1 character.
        let text = "a𝔄b\n";
        let at = |columns| LineMap::new(text).position_in(5, columns).column;
        assert_eq!((at(Columns::Chars), at(Columns::Utf16), at(Columns::Utf8)), (3, 4, 6));
    }

    #[test]
    fn positions_convert_back_to_offsets_and_clamp() {
        let map = LineMap::new("a𝔄b\nxy\n");
        for columns in [Columns::Chars, Columns::Utf16, Columns::Utf8] {
            for offset in [0, 1, 5, 6, 7, 9] {
                assert_eq!(map.offset_in(map.position_in(offset, columns), columns), offset, "{columns:?} {offset}");
            }
        }
        assert_eq!(map.offset_in(Position { line: 2, column: 99 }, Columns::Utf16), 9);
        assert_eq!(map.offset_in(Position { line: 3, column: 5 }, Columns::Utf16), 10);
        assert_eq!(map.offset_in(Position { line: 99, column: 1 }, Columns::Utf16), 10);
        assert_eq!(LineMap::new("ab\r\nc").offset_in(Position { line: 1, column: 9 }, Columns::Utf8), 2);
        assert_eq!(map.offset_in(Position { line: 0, column: 0 }, Columns::Utf8), 0);
    }

    #[test]
    fn first_character_is_line_1_column_1() {
        assert_eq!(pos("abc", 0), (1, 1));
        assert_eq!(pos("", 0), (1, 1));
    }

    #[test]
    fn lines_and_columns_are_one_based() {
        let text = "ab\ncd\nef";
        assert_eq!(pos(text, 1), (1, 2));
        assert_eq!(pos(text, 2), (1, 3)); // the newline ends line 1
        assert_eq!(pos(text, 3), (2, 1));
        assert_eq!(pos(text, 7), (3, 2));
        assert_eq!(pos(text, 8), (3, 3)); // end of text
    }

    #[test]
    fn columns_count_characters_not_bytes() {
        // `⟹` is 3 bytes, `α` 2 bytes.
        let text = "x ⟹ αy";
        let y = text.find('y').unwrap();
        assert_eq!(y, 8);
        assert_eq!(pos(text, y), (1, 6));
        // A 4-byte character counts as one column too (UTF-32, not UTF-16).
        let text = "𝔸z";
        assert_eq!(pos(text, 4), (1, 2));
    }

    #[test]
    fn multibyte_characters_on_earlier_lines_do_not_shift_columns() {
        let text = "⟦⟧\nab";
        assert_eq!(pos(text, text.find('b').unwrap()), (2, 2));
    }

    #[test]
    fn crlf_line_endings_count_as_one_line_break() {
        let text = "αβ\r\nγx\r\n";
        assert_eq!(pos(text, text.find('\r').unwrap()), (1, 3));
        assert_eq!(pos(text, text.find('γ').unwrap()), (2, 1));
        assert_eq!(pos(text, text.find('x').unwrap()), (2, 2));
        assert_eq!(pos(text, text.len()), (3, 1));
    }

    #[test]
    fn offsets_inside_a_character_snap_to_its_start() {
        let text = "a⟹b";
        assert_eq!(pos(text, 2), (1, 2));
        assert_eq!(pos(text, 3), (1, 2));
        assert_eq!(pos(text, 4), (1, 3));
    }

    #[test]
    fn offsets_past_the_end_are_clamped() {
        assert_eq!(pos("ab\nc", 100), (2, 2));
    }
}
