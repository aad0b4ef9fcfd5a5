//! Solved outcomes of whole boards (`partizan outcome`): who wins each
//! first player's game and with which first move, so that asking again is
//! a look-up, not a search.
//!
//! They are kept beside the census results, sealed the same way (a CRC-64
//! over the key and the JSON), under keys of their own,
//!
//! ```text
//! outcome/v1/{ruleset}/{normal|misere}/{board}
//! ```
//!
//! which no region value (the `regions` table, binary keys) and no census
//! result (`census/...`) can ever share. An imported outcome is a claim:
//! it is searched again before it is stored ([`search_outcome`]; a
//! different answer refuses the import), and one the search could not
//! decide within its budget is kept as `unverified`, never answered from
//! ([`OutcomeRead::Unverified`]) until `store verify` has searched it
//! with a larger one. A row is believed only whole: its
//! checksum must hold, and the record must name the same ruleset, board and
//! convention as its key and claim no move for a first player it says
//! loses; anything else is [`OutcomeRead::Damaged`] (recompute it), never
//! an answer. The caller checks the rest against the rules
//! (`partizan_report::stored_outcome`): that a stored move is a move of the
//! board, and that a win with no move is a misère win with none to make.

use partizan_games::{with_rules, Board, Player};
use partizan_solve::outcome::Convention;
use partizan_solve::search::{solve, Control, SearchConfig, SearchError};
use serde::{Deserialize, Serialize};

use crate::error::{Result, StoreError};
use crate::record::Provenance;
use crate::rules::stored_rules;
use crate::Store;

/// The version of the outcome key and record layout.
pub const OUTCOME_VERSION: u32 = 1;

/// One board's stored outcome.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredOutcome {
    /// The ruleset's name.
    pub ruleset: String,
    /// The board in the ruleset's notation.
    pub board: String,
    /// `normal` or `misere`.
    pub convention: String,
    /// Left wins moving first.
    pub left_first_wins: bool,
    /// Right wins moving first.
    pub right_first_wins: bool,
    /// Left's winning first move (the board after it), when Left wins first.
    pub left_move: Option<String>,
    /// Right's winning first move (the board after it), when Right wins first.
    pub right_move: Option<String>,
    /// Nodes the search that found it took (both first players).
    pub nodes: u64,
    /// The partizan version that computed it.
    pub partizan_version: String,
    /// When, in unix seconds.
    pub computed_at: u64,
    /// Searched here (`computed`, the default of rows written before
    /// imports were searched), imported and searched again (`verified`),
    /// or imported and not yet searched (`unverified`: never answered
    /// from).
    #[serde(default = "computed", skip_serializing_if = "is_computed")]
    pub provenance: Provenance,
}

fn computed() -> Provenance {
    Provenance::Computed
}

fn is_computed(p: &Provenance) -> bool {
    *p == Provenance::Computed
}

/// What a look-up found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OutcomeRead {
    /// A whole, consistent record.
    Hit(StoredOutcome),
    /// Nothing stored.
    Miss,
    /// An imported outcome not yet searched again: never an answer.
    Unverified(StoredOutcome),
    /// A row that fails its checksum or does not match its key: never
    /// believed (the reason says which).
    Damaged(String),
}

/// The key of a board's outcome.
pub fn outcome_key(ruleset: &str, convention: &str, board: &str) -> String {
    format!("outcome/v{OUTCOME_VERSION}/{ruleset}/{convention}/{board}")
}

/// Whether a key of the census table holds a stored outcome (of any
/// version) rather than a census result.
pub fn is_outcome_key(key: &str) -> bool {
    key.starts_with("outcome/")
}

impl StoredOutcome {
    /// Why the record cannot be the answer for its key, if it cannot.
    fn fault(&self, ruleset: &str, convention: &str, board: &str) -> Option<String> {
        if self.ruleset != ruleset || self.convention != convention || self.board != board {
            return Some(format!(
                "the record is for {} {} ({}), not its key's",
                self.ruleset, self.board, self.convention
            ));
        }
        if (!self.left_first_wins && self.left_move.is_some())
            || (!self.right_first_wins && self.right_move.is_some())
        {
            return Some("a move without a win".to_string());
        }
        None
    }
}

impl Store {
    /// Record a board's outcome (replacing what was stored for it).
    pub fn put_outcome(&self, o: &StoredOutcome) -> Result<()> {
        let key = outcome_key(&o.ruleset, &o.convention, &o.board);
        let v = serde_json::to_value(o).map_err(StoreError::db)?;
        self.put_census(&key, &v)
    }

    /// The stored outcome of `board`, checked (see the module comment).
    pub fn get_outcome(&self, ruleset: &str, convention: &str, board: &str) -> Result<OutcomeRead> {
        let key = outcome_key(ruleset, convention, board);
        let v = match self.get_census(&key) {
            Ok(Some(v)) => v,
            Ok(None) => return Ok(OutcomeRead::Miss),
            Err(e @ StoreError::Checksum { .. }) => return Ok(OutcomeRead::Damaged(e.to_string())),
            Err(e) => return Err(e),
        };
        let o: StoredOutcome = match serde_json::from_value(v) {
            Ok(o) => o,
            Err(e) => return Ok(OutcomeRead::Damaged(format!("{key}: {e}"))),
        };
        Ok(match o.fault(ruleset, convention, board) {
            Some(why) => OutcomeRead::Damaged(format!("{key}: {why}")),
            None if !o.provenance.trusted() => OutcomeRead::Unverified(o),
            None => OutcomeRead::Hit(o),
        })
    }

    /// The stored outcome under `key` (an [`outcome_key`]), checked as
    /// [`Store::get_outcome`] checks it; `None` if there is none.
    pub fn get_outcome_by_key(&self, key: &str) -> Result<Option<OutcomeRead>> {
        let Some(rest) = key.strip_prefix(&format!("outcome/v{OUTCOME_VERSION}/")) else {
            return Ok(None);
        };
        let mut parts = rest.splitn(3, '/');
        let (Some(r), Some(c), Some(b)) = (parts.next(), parts.next(), parts.next()) else {
            return Ok(None);
        };
        Ok(match self.get_outcome(r, c, b)? {
            OutcomeRead::Miss => None,
            other => Some(other),
        })
    }

    /// Every stored outcome row: its key and what it holds (`None`: the
    /// row fails its checksum or does not parse as an outcome).
    pub fn outcome_rows(&self) -> Result<Vec<(String, Option<StoredOutcome>)>> {
        let mut out = Vec::new();
        for (key, stored) in self.census_raw()? {
            if !is_outcome_key(&key) {
                continue;
            }
            let parsed = crate::db::census_value(&key, &stored)
                .ok()
                .and_then(|v| serde_json::from_value::<StoredOutcome>(v).ok());
            out.push((key, parsed));
        }
        Ok(out)
    }
}

/// What searching a stored or imported outcome again found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Searched {
    /// The search decided both first players: the outcome as searched.
    Decided(StoredOutcome),
    /// The search ran out of its node budget.
    Undecided,
}

impl StoredOutcome {
    /// Whether `other` claims the same winners.
    pub fn same_winners(&self, other: &StoredOutcome) -> bool {
        (self.left_first_wins, self.right_first_wins)
            == (other.left_first_wins, other.right_first_wins)
    }

    /// The class the record claims (L, R, N or P).
    pub fn class(&self) -> &'static str {
        match (self.left_first_wins, self.right_first_wins) {
            (true, true) => "N",
            (false, false) => "P",
            (true, false) => "L",
            (false, true) => "R",
        }
    }
}

/// Search the board of outcome record `o` again from scratch (no store),
/// both first players, within `max_nodes`: the outcome found, as a record
/// stamped now with this build and `provenance`, or [`Searched::Undecided`].
/// A record naming an unknown ruleset or convention or a board its
/// ruleset does not read is an error.
pub fn search_outcome(
    o: &StoredOutcome,
    max_nodes: u64,
    provenance: Provenance,
) -> Result<Searched> {
    let bad =
        |why: String| StoreError::Solve(format!("outcome of {} {}: {why}", o.ruleset, o.board));
    let rules = stored_rules(&o.ruleset).ok_or_else(|| bad("unknown ruleset".to_string()))?;
    let convention = match o.convention.as_str() {
        "normal" => Convention::Normal,
        "misere" => Convention::Misere,
        c => return Err(bad(format!("unknown convention '{c}'"))),
    };
    with_rules!(rules, |r| {
        let board: Board = r.parse(&o.board).map_err(|e| bad(e.to_string()))?;
        let mut config = SearchConfig::for_ruleset(r, convention);
        config.max_nodes = Some(max_nodes.max(1));
        config.table_bytes = 16 << 20;
        match solve(r, &board, &config, &Control::default()) {
            Ok(rep) => {
                let side = |p: Player| {
                    let f = if p == Player::Left {
                        &rep.left
                    } else {
                        &rep.right
                    };
                    (f.wins, f.winning_move.map(|m| r.format(&m)))
                };
                let ((lw, lm), (rw, rm)) = (side(Player::Left), side(Player::Right));
                Ok(Searched::Decided(StoredOutcome {
                    ruleset: o.ruleset.clone(),
                    board: o.board.clone(),
                    convention: o.convention.clone(),
                    left_first_wins: lw,
                    right_first_wins: rw,
                    left_move: lm,
                    right_move: rm,
                    nodes: rep.left.counts.nodes + rep.right.counts.nodes,
                    partizan_version: crate::record::PARTIZAN_VERSION.to_string(),
                    computed_at: crate::record::unix_now(),
                    provenance,
                }))
            }
            Err(SearchError::Budget(_)) => Ok(Searched::Undecided),
            Err(e) => Err(bad(e.to_string())),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> StoredOutcome {
        StoredOutcome {
            ruleset: "domineering".into(),
            board: "..|..".into(),
            convention: "normal".into(),
            left_first_wins: true,
            right_first_wins: true,
            left_move: Some("#.|#.".into()),
            right_move: Some("##|..".into()),
            nodes: 3,
            partizan_version: "test".into(),
            computed_at: 0,
            provenance: Provenance::Computed,
        }
    }

    #[test]
    fn stats_count_stored_outcomes_apart_from_census_results() {
        let dir = tempfile::tempdir().unwrap();
        let s = Store::open(&dir.path().join("s.redb")).unwrap();
        s.put_census(
            "census/domineering/max_cells=3",
            &serde_json::json!({"n": 1}),
        )
        .unwrap();
        s.put_outcome(&sample()).unwrap();
        let mut misere = sample();
        misere.convention = "misere".into();
        s.put_outcome(&misere).unwrap();
        let st = s.stats().unwrap();
        assert_eq!((st.census_entries, st.outcome_entries), (1, 2));
        let v = serde_json::to_value(&st).unwrap();
        assert_eq!(v["outcome_entries"], 2);
        assert_eq!(v["census_entries"], 1);
    }

    #[test]
    fn outcomes_round_trip_and_a_mismatched_record_is_damaged() {
        let dir = tempfile::tempdir().unwrap();
        let s = Store::open(&dir.path().join("s.redb")).unwrap();
        assert_eq!(
            s.get_outcome("domineering", "normal", "..|..").unwrap(),
            OutcomeRead::Miss
        );
        let o = sample();
        s.put_outcome(&o).unwrap();
        assert_eq!(
            s.get_outcome("domineering", "normal", "..|..").unwrap(),
            OutcomeRead::Hit(o.clone())
        );
        // Misère is another key.
        assert_eq!(
            s.get_outcome("domineering", "misere", "..|..").unwrap(),
            OutcomeRead::Miss
        );
        // A record filed under another board's key is not believed.
        let key = outcome_key("domineering", "normal", "...|...");
        s.put_census(&key, &serde_json::to_value(&o).unwrap())
            .unwrap();
        assert!(matches!(
            s.get_outcome("domineering", "normal", "...|...").unwrap(),
            OutcomeRead::Damaged(_)
        ));
        // A move without a win is not believed.
        let mut bad = o;
        bad.left_first_wins = false;
        s.put_census(
            &outcome_key("domineering", "normal", "..|.."),
            &serde_json::to_value(&bad).unwrap(),
        )
        .unwrap();
        assert!(matches!(
            s.get_outcome("domineering", "normal", "..|..").unwrap(),
            OutcomeRead::Damaged(_)
        ));
        // A flipped byte in a stored row fails its checksum.
        s.put_outcome(&sample()).unwrap();
        let key = outcome_key("domineering", "normal", "..|..");
        let c = rusqlite::Connection::open(dir.path().join("s.redb")).unwrap();
        let mut v: Vec<u8> = c
            .query_row("SELECT value FROM census WHERE key = ?1", [&key], |r| {
                r.get(0)
            })
            .unwrap();
        let i = v.iter().position(|&b| b == b't').unwrap(); // a byte of the JSON
        v[i] = b'f';
        c.execute(
            "UPDATE census SET value = ?1 WHERE key = ?2",
            rusqlite::params![v, key],
        )
        .unwrap();
        assert!(matches!(
            s.get_outcome("domineering", "normal", "..|..").unwrap(),
            OutcomeRead::Damaged(_)
        ));
    }
}
