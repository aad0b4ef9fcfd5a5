//! Values of every position of a large stopper graph, one strongly
//! connected part at a time.
//!
//! A ruleset's position graph can have a million positions (Fox and Geese
//! on the 8×8 board), far past what one simplest-form computation can hold
//! (its comparison table is quadratic). But play leaves a strongly
//! connected part for good: the parts form an acyclic graph, and a part's
//! values depend only on its own positions and the values of the parts its
//! options lead to. So the parts are valued sinks first (Tarjan's order):
//! each part is one small graph, its positions plus the simplest forms of
//! the values its options reach outside it, reduced to simplest form with
//! every position a root ([`simplest_many`], which checks its result). The
//! forms found are interned ([`Forms`]): one id per value, so a part sees
//! each outside value once, however many options lead to it.

use std::hash::{Hash, Hasher};

use rustc_hash::{FxHashMap, FxHasher};

use crate::graph::Graph;
use crate::stopper::{compare, simplest_many};
use crate::{LoopyError, Relation};

/// Distinct stoppers in simplest form, one id each.
#[derive(Clone, Debug, Default)]
pub struct Forms {
    forms: Vec<Graph>,
    index: FxHashMap<u64, Vec<u32>>,
}

impl Forms {
    /// No forms yet.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// The simplest form with id `id` (its root is node 0).
    #[must_use]
    pub fn form(&self, id: u32) -> &Graph {
        &self.forms[id as usize]
    }

    /// How many distinct values.
    #[must_use]
    pub fn len(&self) -> usize {
        self.forms.len()
    }

    /// Whether there is none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.forms.is_empty()
    }

    /// The id of a stopper in simplest form (trimmed, root 0), new or
    /// already held. Equal simplest forms are the same graph up to the
    /// numbering of nodes, so they share a key that does not depend on
    /// numbering; forms with the same key are compared exactly.
    pub fn intern(&mut self, g: Graph, max_nodes: usize) -> Result<u32, LoopyError> {
        let key = shape_key(&g);
        if let Some(ids) = self.index.get(&key) {
            for &id in ids {
                if compare(&self.forms[id as usize], &g, max_nodes)? == Relation::Equal {
                    return Ok(id);
                }
            }
        }
        let id = self.forms.len() as u32;
        self.forms.push(g);
        self.index.entry(key).or_default().push(id);
        Ok(id)
    }
}

/// A key of a graph's shape that numbering cannot change: colour
/// refinement (each node's colour hashed with the sorted colours of its
/// Left and of its Right options) until the number of colours stops
/// growing, then the root's colour with the node count.
fn shape_key(g: &Graph) -> u64 {
    let n = g.len();
    let hash = |x: &dyn Fn(&mut FxHasher)| {
        let mut h = FxHasher::default();
        x(&mut h);
        h.finish()
    };
    let mut colour: Vec<u64> = (0..n as u32)
        .map(|x| hash(&|h| (g.left(x).len(), g.right(x).len()).hash(h)))
        .collect();
    let distinct = |c: &[u64]| {
        let mut v = c.to_vec();
        v.sort_unstable();
        v.dedup();
        v.len()
    };
    let mut classes = distinct(&colour);
    for _ in 0..n {
        let next: Vec<u64> = (0..n as u32)
            .map(|x| {
                let side = |opts: &[u32]| {
                    let mut v: Vec<u64> = opts.iter().map(|&y| colour[y as usize]).collect();
                    v.sort_unstable();
                    v
                };
                let (l, r) = (side(g.left(x)), side(g.right(x)));
                hash(&|h| (colour[x as usize], &l, &r).hash(h))
            })
            .collect();
        let now = distinct(&next);
        colour = next;
        if now == classes {
            break;
        }
        classes = now;
    }
    hash(&|h| (n, colour[g.root() as usize]).hash(h))
}

/// Every position's value.
#[derive(Clone, Debug)]
pub struct Valuation {
    /// The value id of each node of the graph valued (in [`Self::forms`]).
    pub values: Vec<u32>,
    /// The distinct values.
    pub forms: Forms,
    /// Strongly connected parts valued.
    pub parts: usize,
    /// Positions of the largest part.
    pub largest_part: usize,
}

/// Values every node of `g` (all of them stoppers: [`Graph::is_stopper_from`]
/// is asked of every node first, and a graph with any non-stopper is
/// refused). `max_part` bounds the graph of one part (its positions plus
/// the forms of the values it reaches). `progress(done, total)` is called
/// as parts are finished.
pub fn value_all(
    g: &Graph,
    max_part: usize,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Valuation, LoopyError> {
    let all: Vec<u32> = (0..g.len() as u32).collect();
    if !g.is_stopper_from(&all) {
        return Err(LoopyError::NotStopper(
            "a position of this graph".into(),
            "valuing every position",
        ));
    }
    let parts = strongly_connected(g);
    let total = parts.len();
    let mut values = vec![u32::MAX; g.len()];
    let mut forms = Forms::new();
    let mut local_of = vec![u32::MAX; g.len()];
    let mut largest_part = 0;
    for (done, part) in parts.iter().enumerate() {
        largest_part = largest_part.max(part.len());
        for (i, &x) in part.iter().enumerate() {
            local_of[x as usize] = i as u32;
        }
        // The part's positions first, then each outside value once.
        let mut local = Graph::default();
        for _ in part {
            local.add();
        }
        let mut outside: FxHashMap<u32, u32> = FxHashMap::default();
        let mut opts_of = |opts: &[u32], local: &mut Graph| -> Result<Vec<u32>, LoopyError> {
            let mut v = Vec::with_capacity(opts.len());
            for &y in opts {
                let l = local_of[y as usize];
                if l != u32::MAX {
                    v.push(l);
                    continue;
                }
                let id = values[y as usize];
                debug_assert_ne!(id, u32::MAX, "an option's part is valued first");
                let node = match outside.get(&id) {
                    Some(&n) => n,
                    None => {
                        let f = forms.form(id);
                        let n = local.append(f) + f.root();
                        if local.len() > max_part {
                            return Err(LoopyError::TooLarge { limit: max_part });
                        }
                        outside.insert(id, n);
                        n
                    }
                };
                v.push(node);
            }
            Ok(v)
        };
        for (i, &x) in part.iter().enumerate() {
            let l = opts_of(g.left(x), &mut local)?;
            let r = opts_of(g.right(x), &mut local)?;
            local.set(i as u32, l, r);
        }
        let roots: Vec<u32> = (0..part.len() as u32).collect();
        let (h, new_roots) = simplest_many(&local, &roots, max_part)?;
        for (&x, &r) in part.iter().zip(&new_roots) {
            let mut f = h.clone();
            f.set_root(r);
            values[x as usize] = forms.intern(f.trimmed(), max_part)?;
        }
        for &x in part {
            local_of[x as usize] = u32::MAX;
        }
        progress(done + 1, total);
    }
    Ok(Valuation {
        values,
        forms,
        parts: total,
        largest_part,
    })
}

/// The strongly connected parts of `g`, each part after every part its
/// options lead to (Tarjan's algorithm, without recursion).
#[must_use]
pub fn strongly_connected(g: &Graph) -> Vec<Vec<u32>> {
    let n = g.len();
    let succ = |x: u32, i: usize| -> Option<u32> {
        let (l, r) = (g.left(x), g.right(x));
        if i < l.len() {
            Some(l[i])
        } else {
            r.get(i - l.len()).copied()
        }
    };
    let mut index = vec![u32::MAX; n];
    let mut low = vec![0u32; n];
    let mut on_stack = vec![false; n];
    let mut stack: Vec<u32> = Vec::new();
    let mut parts = Vec::new();
    let mut next = 0u32;
    for s in 0..n as u32 {
        if index[s as usize] != u32::MAX {
            continue;
        }
        let mut call: Vec<(u32, usize)> = vec![(s, 0)];
        index[s as usize] = next;
        low[s as usize] = next;
        next += 1;
        stack.push(s);
        on_stack[s as usize] = true;
        while let Some(&mut (x, ref mut i)) = call.last_mut() {
            if let Some(y) = succ(x, *i) {
                *i += 1;
                if index[y as usize] == u32::MAX {
                    index[y as usize] = next;
                    low[y as usize] = next;
                    next += 1;
                    stack.push(y);
                    on_stack[y as usize] = true;
                    call.push((y, 0));
                } else if on_stack[y as usize] {
                    low[x as usize] = low[x as usize].min(index[y as usize]);
                }
            } else {
                call.pop();
                if let Some(&(p, _)) = call.last() {
                    low[p as usize] = low[p as usize].min(low[x as usize]);
                }
                if low[x as usize] == index[x as usize] {
                    let mut part = Vec::new();
                    loop {
                        let y = stack.pop().expect("on the stack");
                        on_stack[y as usize] = false;
                        part.push(y);
                        if y == x {
                            break;
                        }
                    }
                    parts.push(part);
                }
            }
        }
    }
    parts
}
