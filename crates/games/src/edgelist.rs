//! Reading the edge lists of the graph rulesets ([`hackenbush_graph`],
//! [`graph_placement`]): items separated by commas, each remembered with
//! its 1-based number and the column of the text it starts at, so that an
//! error can say where it is.
//!
//! [`hackenbush_graph`]: crate::hackenbush_graph
//! [`graph_placement`]: crate::graph_placement

use crate::error::BoardError;

/// One comma-separated item of an edge list, trimmed.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Item<'a> {
    /// 1-based position in the list.
    pub number: usize,
    /// 1-based column of the text where the item starts.
    pub col: usize,
    /// The item without surrounding whitespace.
    pub text: &'a str,
}

impl Item<'_> {
    /// An error about this item.
    pub fn error(&self, ruleset: &'static str, why: impl Into<String>) -> BoardError {
        BoardError::Graph {
            ruleset,
            why: why.into(),
            at: format!(
                "item {} ({:?}), column {}",
                self.number, self.text, self.col
            ),
        }
    }
}

/// Whether `text` is an edge list rather than a board matrix: edge lists
/// hold a `-`, a `,` or a digit, which no matrix glyph is.
pub(crate) fn is_edge_list(text: &str) -> bool {
    text.chars()
        .any(|c| c == '-' || c == ',' || c.is_ascii_digit())
}

/// The items of an edge list (newlines count as commas); an empty item is
/// an error.
pub(crate) fn items<'a>(text: &'a str, ruleset: &'static str) -> Result<Vec<Item<'a>>, BoardError> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut start_col = 1;
    let bytes: Vec<(usize, char)> = text.char_indices().collect();
    for (k, &(i, c)) in bytes.iter().enumerate() {
        let last = k + 1 == bytes.len();
        if c == ',' || c == '\n' || last {
            let end = if c == ',' || c == '\n' {
                i
            } else {
                i + c.len_utf8()
            };
            let raw = &text[start..end];
            let lead = raw.chars().take_while(|c| c.is_whitespace()).count();
            let item = Item {
                number: out.len() + 1,
                col: start_col + lead,
                text: raw.trim(),
            };
            if item.text.is_empty() {
                return Err(item.error(ruleset, "an empty item (two commas in a row?)"));
            }
            out.push(item);
            start = i + c.len_utf8();
            start_col = k + 2;
        }
    }
    if out.is_empty() {
        return Err(BoardError::Empty);
    }
    Ok(out)
}

/// Cells of row `r` of a board `w` wide.
#[inline]
pub(crate) fn row_mask(w: usize, r: usize) -> crate::Bits {
    crate::board::rect_mask(w, 1) << (r * w)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_know_where_they_are() {
        let it = items("g-1:b, 1-2:r,2-g:g", "x").unwrap();
        let got: Vec<(usize, usize, &str)> = it.iter().map(|i| (i.number, i.col, i.text)).collect();
        assert_eq!(
            got,
            vec![(1, 1, "g-1:b"), (2, 8, "1-2:r"), (3, 14, "2-g:g")]
        );
        let e = items("1-2,,3", "x").unwrap_err().to_string();
        assert!(e.contains("item 2") && e.contains("column 5"), "{e}");
        assert!(items("  ", "x").is_err());
        assert!(is_edge_list("1-2") && !is_edge_list("LL.|.RR"));
    }
}
