//! Byte offsets into UTF-8 text turned into character offsets (what
//! Python's `str` indexes and Spark's string functions count), all the
//! offsets of one text at once, in one forward pass over it.
//!
//! The offsets are sorted first (they arrive almost in order, which the
//! standard library's stable sort takes in linear time), then the text
//! is walked once from its start, counting characters between one offset
//! and the next: O(n + k) for a text of n bytes and k offsets in order,
//! O(n + k log k) at worst, never O(n) per offset.

/// What a match's offsets count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// Bytes (`bytes` input, Arrow binary).
    Bytes,
    /// Characters (`str` input, Arrow strings).
    Chars,
}

/// Reusable room for the conversion (so that converting many rows does
/// not allocate per row).
#[derive(Default)]
pub struct CharOffsets {
    order: Vec<(i64, usize)>,
}

/// The number of characters that start in `b` (bytes that are not UTF-8
/// continuation bytes).
fn chars(b: &[u8]) -> usize {
    b.iter().filter(|&&c| (c as i8) >= -0x40).count()
}

impl CharOffsets {
    /// Turns every byte offset of `cols` (each a slice of offsets into
    /// `text`, all of the same length) into the character offset in
    /// `text` of the same place: the number of characters that start
    /// before it. Nothing changes when `text` is ASCII.
    ///
    /// An offset inside a character counts that character as before it;
    /// offsets past the end count every character. The text after the
    /// last offset is not read.
    pub fn convert(&mut self, text: &[u8], cols: &mut [&mut [i64]]) {
        let Some(len) = cols.first().map(|c| c.len()) else { return };
        // Only the text before the last offset is read.
        let last = cols.iter().flat_map(|c| c.iter()).copied().max();
        let last = usize::try_from(last.unwrap_or(0)).unwrap_or(0);
        if text[..last.min(text.len())].is_ascii() {
            return;
        }
        self.order.clear();
        for (c, col) in cols.iter().enumerate() {
            debug_assert_eq!(col.len(), len);
            self.order.extend(
                col.iter().enumerate().map(|(i, &v)| (v, c * len + i)),
            );
        }
        // Stable: runs already in order cost one comparison each.
        self.order.sort_by_key(|&(v, _)| v);
        let (mut pos, mut count) = (0usize, 0usize);
        for &(v, slot) in &self.order {
            let to = usize::try_from(v).unwrap_or(0).clamp(pos, text.len());
            count += chars(&text[pos..to]);
            pos = to;
            cols[slot / len][slot % len] = count as i64;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_become_python_indexes() {
        let s = "é文 <http://a.example/> 𝄞 x";
        let b = s.as_bytes();
        let at = |pat: &str| {
            b.windows(pat.len()).position(|w| w == pat.as_bytes()).unwrap()
        };
        let mut starts = vec![at("http") as i64, at("x") as i64];
        let mut ends = vec![at(">") as i64, b.len() as i64];
        CharOffsets::default().convert(b, &mut [&mut starts, &mut ends]);
        let chars: Vec<char> = s.chars().collect();
        assert_eq!(chars[starts[0] as usize], 'h');
        assert_eq!(chars[ends[0] as usize], '>');
        assert_eq!(chars[starts[1] as usize], 'x');
        assert_eq!(ends[1] as usize, chars.len());
    }

    #[test]
    fn text_after_the_last_offset_changes_nothing() {
        let mut v = vec![3, 1];
        CharOffsets::default().convert("abcdé文".as_bytes(), &mut [&mut v]);
        assert_eq!(v, vec![3, 1]);
        let mut w = vec![7, 1];
        CharOffsets::default().convert("é文abcdé".as_bytes(), &mut [&mut w]);
        assert_eq!(w, vec![4, 1]);
    }

    #[test]
    fn out_of_order_offsets_convert_alike() {
        let s = "ü".repeat(10) + "abc";
        let mut v = vec![12, 0, 20, 2, 23];
        CharOffsets::default().convert(s.as_bytes(), &mut [&mut v]);
        assert_eq!(v, vec![6, 0, 10, 1, 13]);
    }
}
