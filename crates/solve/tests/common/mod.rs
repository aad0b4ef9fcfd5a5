//! What several test files share: the published Domineering outcome table
//! and a small deterministic generator for random boards. (Each test file
//! that declares this module uses part of it.)
#![allow(dead_code)]

/// A small deterministic generator (xorshift64*).
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number below `n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A random Domineering board of `h` x `w` with about `holes` in 10 cells
/// blocked.
pub fn random_board(rng: &mut Rng, h: usize, w: usize, holes: u64) -> partizan_games::Board {
    use partizan_games::Ruleset;
    let text: Vec<String> = (0..h)
        .map(|_| {
            (0..w)
                .map(|_| if rng.below(10) < holes { '#' } else { '.' })
                .collect()
        })
        .collect();
    partizan_games::Domineering
        .parse(&text.join("|"))
        .expect("parses")
}

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
