//! The options of one heap, as the heaps each move leaves: what an engine
//! that looks at whole positions (misère play, sums searched directly)
//! needs, where the Grundy engines only need values.

use crate::code::{LEAVE_ONE, LEAVE_THREE, LEAVE_TWO, TAKE_ALL};
use crate::{HeapGame, OctalCode};

impl OctalCode {
    /// Call `f` with every option of one heap of `n` tokens, as the
    /// non-empty heaps it leaves (increasing; empty when the move takes the
    /// whole heap). Each distinct option once.
    pub fn heap_options(&self, n: usize, mut f: impl FnMut(&[usize])) {
        for (j, &d) in self.digits().iter().enumerate() {
            if j > n {
                break;
            }
            let m = n - j;
            if d & TAKE_ALL != 0 && m == 0 && j > 0 {
                f(&[]);
            }
            if d & LEAVE_ONE != 0 && m >= 1 && j > 0 {
                f(&[m]);
            }
            if d & LEAVE_TWO != 0 && m >= 2 {
                for a in 1..=m / 2 {
                    f(&[a, m - a]);
                }
            }
            if d & LEAVE_THREE != 0 && m >= 3 {
                for a in 1..=m / 3 {
                    for b in a..=(m - a) / 2 {
                        f(&[a, b, m - a - b]);
                    }
                }
            }
        }
    }
}

impl HeapGame {
    /// Call `f` with every option of one heap of `n` tokens, as the
    /// non-empty heaps it leaves (see [`OctalCode::heap_options`]): Nim
    /// leaves any smaller heap, an all-but game any smaller heap whose
    /// difference is not excluded.
    pub fn heap_options(&self, n: usize, mut f: impl FnMut(&[usize])) {
        let mut smaller = |m: usize| {
            if m == 0 {
                f(&[]);
            } else {
                f(&[m]);
            }
        };
        match self {
            Self::Nim => (0..n).for_each(&mut smaller),
            Self::AllBut(a) => (0..n)
                .filter(|m| a.excluded().binary_search(&(n - m)).is_err())
                .for_each(&mut smaller),
            Self::Octal(c) => c.heap_options(n, f),
            Self::Subtraction(s) => s.code().heap_options(n, f),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::naive_values;

    fn collect(game: &HeapGame, n: usize) -> Vec<Vec<usize>> {
        let mut out = Vec::new();
        game.heap_options(n, |o| out.push(o.to_vec()));
        out
    }

    #[test]
    fn kayles_options_of_four() {
        let k = HeapGame::parse("0.77").unwrap();
        let mut o = collect(&k, 4);
        o.sort();
        assert_eq!(o, vec![vec![1, 1], vec![1, 2], vec![2], vec![3]]);
        assert_eq!(collect(&k, 1), vec![Vec::<usize>::new()]);
        let nim = HeapGame::Nim;
        assert_eq!(collect(&nim, 2), vec![vec![], vec![1]]);
    }

    #[test]
    fn options_give_the_grundy_values() {
        // The mex over the options' XORs is the engine's value.
        for code in ["0.07", "0.137", "4.7", "0.8", "0.3f", "0.16"] {
            let game = HeapGame::parse(code).unwrap();
            let want = naive_values(&OctalCode::parse(code).unwrap(), 40);
            let mut g: Vec<u32> = Vec::new();
            for n in 0..40 {
                let mut seen = Vec::new();
                game.heap_options(n, |o| seen.push(o.iter().fold(0, |a, &h| a ^ g[h])));
                seen.sort_unstable();
                seen.dedup();
                let mex = (0u32..)
                    .find(|v| seen.binary_search(v).is_err())
                    .unwrap_or(0);
                g.push(mex);
            }
            assert_eq!(g, want, "{code}");
        }
    }
}
