//! A quotient in words: generators (the images of the heaps that are not
//! products of earlier ones), every element's normal form (its least word
//! in graded lexicographic order), and the relations: each least word that
//! is not a normal form, equal to the normal form of its element. Normal
//! forms are closed under taking divisors and the order is a monomial
//! order, so rewriting by these relations brings every word to its normal
//! form: they present the monoid.

use rustc_hash::FxHashMap;
use serde::Serialize;

use super::Table;

/// The quotient as generators and relations (see the module docs).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Presentation {
    /// Generator names `a, b, c, ...` with the heap each is the image of.
    pub generators: Vec<(String, usize)>,
    /// Relations `left = right`, left a minimal non-normal word.
    pub relations: Vec<(String, String)>,
    /// Every element's normal form, by element number.
    pub elements: Vec<String>,
    /// The normal forms of the P-portion.
    pub p_portion: Vec<String>,
    /// The normal form of each heap's element, heap `0..`.
    pub heaps: Vec<String>,
}

fn name(i: usize) -> String {
    let letters = "abcdefghijklmnopqrstuvwxyz".as_bytes();
    if i < letters.len() {
        (letters[i] as char).to_string()
    } else {
        format!("g{}", i + 1)
    }
}

/// `a^2bc`, `1` for the empty word.
fn word_text(word: &[u32]) -> String {
    let mut out = String::new();
    for (i, &e) in word.iter().enumerate() {
        if e == 0 {
            continue;
        }
        out.push_str(&name(i));
        if e > 1 {
            out.push_str(&format!("^{e}"));
        }
    }
    if out.is_empty() {
        out.push('1');
    }
    out
}

/// Graded lexicographic order: by degree, then the exponent of `a`, then
/// of `b`, ... (more of an earlier generator is larger).
fn key(word: &[u32]) -> (u32, Vec<u32>) {
    (word.iter().sum(), word.to_vec())
}

impl Presentation {
    /// The presentation of a table with P-portion `p` and heap images `phi`.
    #[must_use]
    pub fn of(table: &Table, p: &[bool], phi: &[u32]) -> Self {
        let q = table.len();
        // Generators: heap images not in the submonoid of earlier ones.
        let mut reached = vec![false; q];
        reached[0] = true;
        let mut gens: Vec<(u32, usize)> = Vec::new();
        for (h, &x) in phi.iter().enumerate() {
            if reached[x as usize] {
                continue;
            }
            gens.push((x, h));
            // Close the reached set under the new generator set.
            let mut stack: Vec<u32> = (0..q as u32).filter(|&y| reached[y as usize]).collect();
            while let Some(y) = stack.pop() {
                for &(g, _) in &gens {
                    let z = table.mul(y, g);
                    if !reached[z as usize] {
                        reached[z as usize] = true;
                        stack.push(z);
                    }
                }
            }
        }
        let k = gens.len();
        // Normal forms degree by degree: the least candidate word per element.
        let mut normal: Vec<Option<Vec<u32>>> = vec![None; q];
        normal[0] = Some(vec![0; k]);
        let mut frontier: Vec<(Vec<u32>, u32)> = vec![(vec![0; k], 0)];
        while !frontier.is_empty() {
            let mut candidates: Vec<(Vec<u32>, u32)> = Vec::new();
            for (word, x) in &frontier {
                for (g, &(gx, _)) in gens.iter().enumerate() {
                    let mut w = word.clone();
                    w[g] += 1;
                    candidates.push((w, table.mul(*x, gx)));
                }
            }
            candidates.sort_by_key(|(w, _)| key(w));
            frontier.clear();
            for (w, x) in candidates {
                if normal[x as usize].is_none() {
                    normal[x as usize] = Some(w.clone());
                    frontier.push((w, x));
                }
            }
        }
        // Relations: each non-normal word one generator past a normal form
        // whose divisors are all normal forms.
        let normals: FxHashMap<Vec<u32>, u32> = normal
            .iter()
            .enumerate()
            .filter_map(|(x, w)| w.clone().map(|w| (w, x as u32)))
            .collect();
        let mut relations: Vec<(Vec<u32>, u32)> = Vec::new();
        for (v, &x) in &normals {
            for (g, &(gx, _)) in gens.iter().enumerate() {
                let mut w = v.clone();
                w[g] += 1;
                if normals.contains_key(&w) {
                    continue;
                }
                let minimal = (0..k).filter(|&i| w[i] > 0).all(|i| {
                    let mut d = w.clone();
                    d[i] -= 1;
                    normals.contains_key(&d)
                });
                if minimal {
                    relations.push((w, table.mul(x, gx)));
                }
            }
        }
        relations.sort_by_key(|(w, _)| key(w));
        relations.dedup_by(|a, b| a.0 == b.0);
        let text_of = |x: u32| {
            normal[x as usize]
                .as_deref()
                .map_or_else(|| "?".into(), word_text)
        };
        Self {
            generators: gens
                .iter()
                .enumerate()
                .map(|(i, &(_, h))| (name(i), h))
                .collect(),
            relations: relations
                .iter()
                .map(|(w, x)| (word_text(w), text_of(*x)))
                .collect(),
            elements: (0..q as u32).map(text_of).collect(),
            p_portion: (0..q as u32)
                .filter(|&x| p[x as usize])
                .map(text_of)
                .collect(),
            heaps: phi.iter().map(|&x| text_of(x)).collect(),
        }
    }
}
