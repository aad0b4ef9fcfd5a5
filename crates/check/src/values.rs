//! A small engine for the values of short games, written for the checker
//! alone and sharing no code with `partizan_core`'s arena (whose
//! results the certificates are made from).
//!
//! It knows only the definitions: a game is its two sets of options;
//! `G <= H` unless some `G^L >= H` or some `H^R <= G`; a sum's options
//! are the sums with one part moved; the canonical form removes dominated
//! options and bypasses reversible ones until neither applies, and is
//! unique, so one canonical form is one [`Id`] and equal values are
//! equal ids. No numbers, nimbers or infinitesimals are special: it is
//! slow on big values and meant for small ones (the regions of at most
//! [`crate::MAX_VALUE_CELLS`] cells a certificate leaves to values).
//!
//! The tests compare it with plain minimax on the games' trees
//! (`tests/values.rs`), never with the arena.

use rustc_hash::FxHashMap;

/// One canonical form.
pub type Id = u32;

#[derive(Clone, PartialEq, Eq, Hash, Debug)]
struct Form {
    left: Box<[Id]>,
    right: Box<[Id]>,
}

/// The table of canonical forms met so far, with the comparisons and
/// sums computed between them.
pub struct Values {
    forms: Vec<Form>,
    index: FxHashMap<Form, Id>,
    le: FxHashMap<(Id, Id), bool>,
    sums: FxHashMap<(Id, Id), Id>,
    ints: FxHashMap<i64, Id>,
    /// Comparisons and sums worked out (not cache hits): the engine's
    /// share of a check's work.
    pub work: u64,
}

impl Default for Values {
    fn default() -> Self {
        Self::new()
    }
}

/// The comparisons of one canonicalisation against the form being made
/// (not yet in the table): `(x, true)` is `x <= G`, `(x, false)` is
/// `G <= x`.
type Against = FxHashMap<(Id, bool), bool>;

impl Values {
    /// A table holding 0 (`{|}`, id 0).
    pub fn new() -> Values {
        let zero = Form {
            left: Box::new([]),
            right: Box::new([]),
        };
        let mut index = FxHashMap::default();
        index.insert(zero.clone(), 0);
        Values {
            forms: vec![zero],
            index,
            le: FxHashMap::default(),
            sums: FxHashMap::default(),
            ints: FxHashMap::default(),
            work: 0,
        }
    }

    /// The value 0.
    pub const fn zero(&self) -> Id {
        0
    }

    /// How many canonical forms the table holds.
    pub fn len(&self) -> usize {
        self.forms.len()
    }

    /// Whether the table holds only 0.
    pub fn is_empty(&self) -> bool {
        self.forms.len() == 1
    }

    /// The canonical Left options of `g`.
    pub fn left(&self, g: Id) -> &[Id] {
        &self.forms[g as usize].left
    }

    /// The canonical Right options of `g`.
    pub fn right(&self, g: Id) -> &[Id] {
        &self.forms[g as usize].right
    }

    /// `a <= b`, by the definition.
    pub fn le(&mut self, a: Id, b: Id) -> bool {
        if a == b {
            return true;
        }
        if let Some(&r) = self.le.get(&(a, b)) {
            return r;
        }
        self.work += 1;
        let r = !(0..self.forms[a as usize].left.len()).any(|i| {
            let x = self.forms[a as usize].left[i];
            self.le(b, x)
        }) && !(0..self.forms[b as usize].right.len()).any(|i| {
            let y = self.forms[b as usize].right[i];
            self.le(y, a)
        });
        self.le.insert((a, b), r);
        r
    }

    /// `x <= G` for the form `G` = `{left | right}` being made.
    fn le_to_form(&mut self, x: Id, left: &[Id], right: &[Id], memo: &mut Against) -> bool {
        if let Some(&r) = memo.get(&(x, true)) {
            return r;
        }
        // No x^L >= G, and no G^R <= x.
        let mut r = !right.iter().any(|&gr| self.le(gr, x));
        if r {
            r = !(0..self.forms[x as usize].left.len()).any(|i| {
                let y = self.forms[x as usize].left[i];
                self.form_le(left, right, y, memo)
            });
        }
        memo.insert((x, true), r);
        r
    }

    /// `G <= x` for the form `G` = `{left | right}` being made.
    fn form_le(&mut self, left: &[Id], right: &[Id], x: Id, memo: &mut Against) -> bool {
        if let Some(&r) = memo.get(&(x, false)) {
            return r;
        }
        // No G^L >= x, and no x^R <= G.
        let mut r = !left.iter().any(|&gl| self.le(x, gl));
        if r {
            r = !(0..self.forms[x as usize].right.len()).any(|i| {
                let y = self.forms[x as usize].right[i];
                self.le_to_form(y, left, right, memo)
            });
        }
        memo.insert((x, false), r);
        r
    }

    /// The canonical form of `{left | right}`, whose options are
    /// canonical forms of this table.
    pub fn make(&mut self, mut left: Vec<Id>, mut right: Vec<Id>) -> Id {
        loop {
            left.sort_unstable();
            left.dedup();
            right.sort_unstable();
            right.dedup();
            // Dominated options: Left keeps her greatest, Right his least
            // (distinct canonical forms are never equal, so no ties).
            let mut l2 = Vec::with_capacity(left.len());
            for (i, &a) in left.iter().enumerate() {
                let dominated = left
                    .iter()
                    .enumerate()
                    .any(|(j, &b)| j != i && self.le(a, b));
                if !dominated {
                    l2.push(a);
                }
            }
            let mut r2 = Vec::with_capacity(right.len());
            for (i, &a) in right.iter().enumerate() {
                let dominated = right
                    .iter()
                    .enumerate()
                    .any(|(j, &b)| j != i && self.le(b, a));
                if !dominated {
                    r2.push(a);
                }
            }
            left = l2;
            right = r2;
            // Reversible options, against G as it stands.
            let mut memo = Against::default();
            let mut changed = false;
            let mut l3 = Vec::with_capacity(left.len());
            for &a in &left {
                let ar = self.forms[a as usize].right.clone();
                match ar
                    .iter()
                    .find(|&&y| self.le_to_form(y, &left, &right, &mut memo))
                {
                    Some(&y) => {
                        l3.extend_from_slice(&self.forms[y as usize].left);
                        changed = true;
                    }
                    None => l3.push(a),
                }
            }
            let mut r3 = Vec::with_capacity(right.len());
            for &a in &right {
                let al = self.forms[a as usize].left.clone();
                match al
                    .iter()
                    .find(|&&y| self.form_le(&left, &right, y, &mut memo))
                {
                    Some(&y) => {
                        r3.extend_from_slice(&self.forms[y as usize].right);
                        changed = true;
                    }
                    None => r3.push(a),
                }
            }
            left = l3;
            right = r3;
            if !changed {
                break;
            }
        }
        left.sort_unstable();
        right.sort_unstable();
        let form = Form {
            left: left.into_boxed_slice(),
            right: right.into_boxed_slice(),
        };
        if let Some(&id) = self.index.get(&form) {
            return id;
        }
        let id = self.forms.len() as Id;
        self.forms.push(form.clone());
        self.index.insert(form, id);
        id
    }

    /// `a + b`.
    pub fn sum(&mut self, a: Id, b: Id) -> Id {
        if a == 0 {
            return b;
        }
        if b == 0 {
            return a;
        }
        let key = (a.min(b), a.max(b));
        if let Some(&s) = self.sums.get(&key) {
            return s;
        }
        self.work += 1;
        let (fa, fb) = (
            self.forms[a as usize].clone(),
            self.forms[b as usize].clone(),
        );
        let mut left = Vec::with_capacity(fa.left.len() + fb.left.len());
        for &x in fa.left.iter() {
            left.push(self.sum(x, b));
        }
        for &y in fb.left.iter() {
            left.push(self.sum(a, y));
        }
        let mut right = Vec::with_capacity(fa.right.len() + fb.right.len());
        for &x in fa.right.iter() {
            right.push(self.sum(x, b));
        }
        for &y in fb.right.iter() {
            right.push(self.sum(a, y));
        }
        let s = self.make(left, right);
        self.sums.insert(key, s);
        s
    }

    /// The integer `n` (`{n-1|}` above 0, `{|n+1}` below).
    pub fn integer(&mut self, n: i64) -> Id {
        if n == 0 {
            return self.zero();
        }
        if let Some(&g) = self.ints.get(&n) {
            return g;
        }
        let g = if n > 0 {
            let below = self.integer(n - 1);
            self.make(vec![below], vec![])
        } else {
            let above = self.integer(n + 1);
            self.make(vec![], vec![above])
        };
        self.ints.insert(n, g);
        g
    }

    /// Whether Left, moving first in `g`, wins: some `g^L >= 0`.
    pub fn left_first_wins(&mut self, g: Id) -> bool {
        (0..self.forms[g as usize].left.len()).any(|i| {
            let x = self.forms[g as usize].left[i];
            self.le(0, x)
        })
    }

    /// Whether Right, moving first in `g`, wins: some `g^R <= 0`.
    pub fn right_first_wins(&mut self, g: Id) -> bool {
        (0..self.forms[g as usize].right.len()).any(|i| {
            let x = self.forms[g as usize].right[i];
            self.le(x, 0)
        })
    }
}
