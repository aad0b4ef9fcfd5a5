//! What several test files share: the published Domineering outcome table.

/// The rows of `data/domineering_outcomes.txt`: (rows, cols, class), Left
/// vertical, classes L, R, N, P.
pub fn domineering_table() -> Vec<(usize, usize, String)> {
    include_str!("../data/domineering_outcomes.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            assert_eq!(f.len(), 3, "a table row is rows, cols, class: {l:?}");
            (
                f[0].parse().expect("rows"),
                f[1].parse().expect("cols"),
                f[2].to_string(),
            )
        })
        .collect()
}
