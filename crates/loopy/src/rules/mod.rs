//! Rulesets whose positions can recur: the loopy registry.
//!
//! The registry of `partizan-games` holds short rulesets only, and the
//! code generic over it (the value solver, the outcome search, the
//! census) relies on play ending. A ruleset here is the same idea for
//! games whose play can return to a position: one file implementing
//! [`LoopyRuleset`] and one line in the list below, and every front end
//! (CLI, site, Python) finds it through [`LoopyRules`]. Positions are
//! explored into a [`Graph`] ([`explore`]), and the loopy engine values
//! it: outcomes with draws, every position's value part by part
//! ([`value_all`](crate::valuation::value_all)) when the graph is a
//! stopper, sides by sidling otherwise.

pub mod fox_geese;
pub mod toads;

use std::fmt;
use std::hash::Hash;

use rustc_hash::FxHashMap;

use crate::graph::Graph;
use crate::LoopyError;

/// What a front end shows of a loopy ruleset.
#[derive(Debug)]
pub struct LoopyInfo {
    /// Short lower-case name.
    pub name: &'static str,
    /// Other names accepted.
    pub aliases: &'static [&'static str],
    /// Its title.
    pub title: &'static str,
    /// The rules in a sentence or two.
    pub rules: &'static str,
    /// What the board's characters mean.
    pub glyphs: &'static str,
    /// Example boards, each with what it is.
    pub examples: &'static [(&'static str, &'static str)],
}

/// A ruleset whose play can return to a position.
pub trait LoopyRuleset {
    /// A position (small and copyable: bitboards).
    type Pos: Copy + Eq + Hash;
    /// Its description.
    fn info(&self) -> &'static LoopyInfo;
    /// A board from text, checked once here.
    fn parse(&self, text: &str) -> Result<Self::Pos, LoopyError>;
    /// A position as board text ([`parse`](Self::parse) reads it back).
    fn format(&self, p: &Self::Pos) -> String;
    /// Calls `f` with each option of the player (`left` or Right).
    fn options(&self, p: &Self::Pos, left: bool, f: &mut dyn FnMut(Self::Pos));
}

/// The positions reachable from `start`, as a graph whose root (node 0)
/// is `start`; at most `max_nodes` positions. `progress(positions)` is
/// called every 65,536 positions.
pub fn explore<R: LoopyRuleset>(
    r: &R,
    start: R::Pos,
    max_nodes: usize,
    progress: &mut dyn FnMut(usize),
) -> Result<Graph, LoopyError> {
    let mut index: FxHashMap<R::Pos, u32> = FxHashMap::default();
    let mut order = vec![start];
    index.insert(start, 0);
    let mut g = Graph::default();
    let mut i = 0;
    while i < order.len() {
        let p = order[i];
        let mut sides = [Vec::new(), Vec::new()];
        let mut full = false;
        for (side, left) in sides.iter_mut().zip([true, false]) {
            r.options(&p, left, &mut |q| {
                let id = match index.get(&q) {
                    Some(&id) => id,
                    None => {
                        if order.len() >= max_nodes {
                            full = true;
                            return;
                        }
                        let id = order.len() as u32;
                        index.insert(q, id);
                        order.push(q);
                        id
                    }
                };
                side.push(id);
            });
        }
        if full {
            return Err(LoopyError::TooLarge { limit: max_nodes });
        }
        let [l, rr] = sides;
        let x = g.add();
        g.set(x, l, rr);
        i += 1;
        if i % 65_536 == 0 {
            progress(i);
        }
    }
    Ok(g)
}

macro_rules! loopy_registry {
    ($($v:ident => $ty:path),* $(,)?) => {
        /// Every registered loopy ruleset.
        #[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
        pub enum LoopyRules {
            $(
                #[doc = concat!("See [`", stringify!($ty), "`].")]
                $v,
            )*
        }

        impl LoopyRules {
            /// Every loopy ruleset, in registry order.
            pub const ALL: &'static [LoopyRules] = &[$(LoopyRules::$v),*];

            /// Its description.
            #[must_use]
            pub fn info(self) -> &'static LoopyInfo {
                match self {
                    $(LoopyRules::$v => LoopyRuleset::info(&$ty),)*
                }
            }

            /// The board's graph (root: the board) and the board as the
            /// ruleset writes it.
            pub fn explore(
                self,
                board: &str,
                max_nodes: usize,
                progress: &mut dyn FnMut(usize),
            ) -> Result<(Graph, String), LoopyError> {
                match self {
                    $(LoopyRules::$v => {
                        let r = &$ty;
                        let p = r.parse(board)?;
                        Ok((explore(r, p, max_nodes, progress)?, r.format(&p)))
                    })*
                }
            }
        }
    };
}

loopy_registry! {
    FoxAndGeese => fox_geese::FoxAndGeese,
    BackslidingToads => toads::BackslidingToads,
}

impl LoopyRules {
    /// Short lower-case name.
    #[must_use]
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// The loopy ruleset called `name` (case-insensitive, aliases
    /// accepted), if any.
    #[must_use]
    pub fn from_name(name: &str) -> Option<LoopyRules> {
        let lower = name.trim().to_lowercase();
        LoopyRules::ALL.iter().copied().find(|r| {
            let i = r.info();
            i.name == lower || i.aliases.iter().any(|a| *a == lower)
        })
    }
}

impl fmt::Display for LoopyRules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Board text split into rows (`|` or newlines), each a vector of
/// characters, all of one width; at most `max_cells` cells.
pub(crate) fn grid(text: &str, max_cells: usize) -> Result<Vec<Vec<char>>, LoopyError> {
    let rows: Vec<Vec<char>> = text
        .trim()
        .split(['|', '\n'])
        .map(|r| r.trim().chars().collect())
        .collect();
    if rows.iter().all(Vec::is_empty) {
        return Err(LoopyError::Board("the board is empty".into()));
    }
    let cells: usize = rows.iter().map(Vec::len).sum();
    if cells > max_cells {
        return Err(LoopyError::Board(format!(
            "the board has {cells} cells; at most {max_cells}"
        )));
    }
    Ok(rows)
}
