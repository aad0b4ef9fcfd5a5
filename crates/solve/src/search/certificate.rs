//! Certificates: the winning strategy of an outcome search written as a
//! compact proof (the prover), for the independent checker of
//! `partizan_check` to replay (its crate documentation gives the format
//! and the checker's trusted base; its types are re-exported here).
//!
//! Positions come in two kinds (`positions`):
//!
//! * `split`: a position is its board (the big regions; small regions
//!   blanked) and its tail (the sum of the small regions' values, CGSuite
//!   notation). The general engine writes these, for every ruleset, and
//!   stops a line where its own knowledge settles it (values, move
//!   bounds); the checker decides such a position by its own rules or, if
//!   they do not reach, searches it itself.
//! * `whole`: the board keeps every region (the tail is 0). Domineering
//!   writes these: the search runs on the oracle's engine, whose table
//!   then answers the prover's questions (does this move win?) about
//!   whole boards; a line ends only where the checker's own rules decide
//!   it ([`Leaves`]): by the move counts alone (`value-cells 0`: safe
//!   moves and protective areas, and the checker's own packing of
//!   vulnerable placements) where the certificate declares them, by the
//!   values of small regions where it does not. (Older certificates that also stopped where the fast
//!   path's finer bound did, `cutoffs bounds fine`, are still read: the
//!   checker searches those positions out with its own rules, which on
//!   8 x 8 takes far longer than replaying a proof that goes on to its
//!   own leaves.)
//!
//! Where the winner has a choice, the prover takes a move after which the
//! counts decide the line at once, and otherwise the first winning move
//! in the search's own order (the opponent's fewest moves and the
//! mover's most safe ones first): the proof follows the lines the search
//! found short. (Choosing instead the winning move that leaves the
//! opponent the fewest replies the counts do not decide made 7 x 7
//! proofs larger, not smaller.)

use std::io::Write;
use std::time::Instant;

use partizan_core::{GameId, Outcome};
use partizan_games::{Board, Player, Ruleset};

pub use partizan_check::{
    check, check_reader, CertError, CertReader, Certificate, CheckProgress, CheckReport, Claims,
    Header, Leaves, Play, PosSet, Record, RecordRef, HEADER, HEADER_V1,
};

use super::domineering::Oracle;
use super::{
    Engine, Knowledge, Node, SearchConfig, SearchError, SearchReport, Shared, Table, Zobrist,
};
use crate::outcome::Convention;

/// A position's flags in the proof's set: who moves, who is to win.
fn flags(mover: Player, winner: Player) -> u8 {
    u8::from(mover == Player::Left) | (u8::from(winner == Player::Left) << 1)
}

/// The proof being written.
struct Proof<'w> {
    seen: PosSet,
    out: &'w mut dyn Write,
    records: u64,
    /// The certificate declares `cutoffs bounds`.
    bounds: bool,
}

impl Proof<'_> {
    fn emit(&mut self, r: RecordRef<'_>) -> Result<(), SearchError> {
        self.records += 1;
        r.write(self.out)
            .map_err(|e| SearchError::Write(e.to_string()))
    }
}

impl<'s, 'r, R: Knowledge> Engine<'s, 'r, R> {
    /// Whether `mover` wins `node` as the checker decides it without a
    /// record (below the root): by the tail's value when no big region is
    /// left, by the move bounds when the certificate declares them, or
    /// because the mover has no move; `None`: the checker plays on.
    fn settled(&mut self, node: &Node, mover: Player, bounds: bool) -> Option<bool> {
        let cfg = self.sh.config;
        if cfg.values_on() && node.nparts == 0 {
            return Some(match self.arena.outcome(node.tail) {
                Outcome::N => true,
                Outcome::P => false,
                Outcome::L => mover == Player::Left,
                Outcome::R => mover == Player::Right,
            });
        }
        let normal = cfg.convention == Convention::Normal;
        if bounds && normal {
            if let Some(w) = self.bounds_cutoff(node, mover) {
                return Some(w);
            }
        }
        let tail_moves = match mover {
            Player::Left => self.arena.left_options(node.tail).len(),
            Player::Right => self.arena.right_options(node.tail).len(),
        };
        let stuck = tail_moves == 0 && self.rules.options_while(&node.board, mover, |_| false);
        stuck.then_some(!normal)
    }

    /// Record a winning strategy for `winner` from `node` with `mover` to
    /// move (the search has decided that `winner` wins it).
    fn prove(
        &mut self,
        node: &Node,
        mover: Player,
        winner: Player,
        proof: &mut Proof<'_>,
    ) -> Result<(), SearchError> {
        if !proof
            .seen
            .add(&node.board, node.tail.index(), flags(mover, winner))
        {
            return Ok(());
        }
        if self.depth > 0 && self.settled(node, mover, proof.bounds).is_some() {
            return Ok(()); // the checker decides it without a record
        }
        let cfg = self.sh.config;
        let mut opts = Vec::new();
        self.rules.options(&node.board, mover, |o| opts.push(o));
        let tails: Vec<GameId> = match mover {
            Player::Left => self.arena.left_options(node.tail).to_vec(),
            Player::Right => self.arena.right_options(node.tail).to_vec(),
        };
        let other = mover.opponent();
        let rules = self.rules;
        if mover == winner {
            // The search's order: the lines it found short.
            opts.sort_by_cached_key(|o| std::cmp::Reverse(rules.safety_score(o, mover)));
            let mut children = Vec::with_capacity(opts.len() + tails.len());
            for (i, o) in opts.iter().enumerate() {
                children.push((self.child(node, o)?, Some(i)));
            }
            for &t in &tails {
                children.push((Node { tail: t, ..*node }, None));
            }
            // A move that ends the line at once first.
            self.depth += 1;
            let at_once = children
                .iter()
                .position(|(c, _)| self.settled(c, other, proof.bounds) == Some(false));
            self.depth -= 1;
            if let Some(i) = at_once {
                children[..=i].rotate_right(1);
            }
            for (c, on_board) in children {
                self.depth += 1;
                let w = self.wins(&c, other);
                self.depth -= 1;
                if !w? {
                    let to = match on_board {
                        Some(i) => self.rules.format(&opts[i]),
                        None => self.arena.display(c.tail),
                    };
                    proof.emit(RecordRef {
                        mover,
                        board: &self.rules.format(&node.board),
                        tail: &self.arena.display(node.tail),
                        on_board: on_board.is_some(),
                        to: &to,
                    })?;
                    self.depth += 1;
                    let r = self.prove(&c, other, winner, proof);
                    self.depth -= 1;
                    return r;
                }
            }
            // No move wins: only a misère player without a move wins so.
            if opts.is_empty() && tails.is_empty() && cfg.convention == Convention::Misere {
                return Ok(());
            }
            Err(SearchError::Inconsistent(format!(
                "no winning move found for {mover:?} at {}",
                self.rules.format(&node.board)
            )))
        } else {
            for o in &opts {
                let c = self.child(node, o)?;
                self.depth += 1;
                let r = self.prove(&c, other, winner, proof);
                self.depth -= 1;
                r?;
            }
            for &t in &tails {
                let c = Node { tail: t, ..*node };
                self.depth += 1;
                let r = self.prove(&c, other, winner, proof);
                self.depth -= 1;
                r?;
            }
            Ok(())
        }
    }
}

/// Solve `board` (one thread) and write the certificate of each searched
/// first player's answer (both, unless `config.first` names one) to `out`,
/// a record at a time; the search's report and the number of records.
///
/// Where the ruleset has an oracle (Domineering under normal play) the
/// proof keeps whole positions and leans on what the fast path leans on
/// only where the checker's own rules decide (move bounds, values of
/// boards whose regions are all small), so the checker searches nothing;
/// otherwise the general engine walks split positions.
pub fn write_certificate<R: Knowledge>(
    rules: &R,
    board: &Board,
    config: &SearchConfig,
    control: &super::Control<'_>,
    out: &mut dyn Write,
) -> Result<(SearchReport, u64), SearchError> {
    write_certificate_as(rules, board, config, control, out, Positions::Best)
}

/// Which positions a certificate keeps (see [`Header::whole`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Positions {
    /// Whole positions where the ruleset has an oracle (Domineering under
    /// normal play), split ones elsewhere.
    Best,
    /// Split positions, by the general engine, whatever the ruleset: a
    /// proof that leans on no fast path and no finer bound.
    Split,
}

/// [`write_certificate`] keeping `positions`.
pub fn write_certificate_as<R: Knowledge>(
    rules: &R,
    board: &Board,
    config: &SearchConfig,
    control: &super::Control<'_>,
    out: &mut dyn Write,
    positions: Positions,
) -> Result<(SearchReport, u64), SearchError> {
    let mut config = *config;
    config.threads = 1;
    let normal = config.convention == Convention::Normal;
    let config = &config;
    rules.with_oracle(board, config, control, |oracle| {
        // The oracle's engine has searched the board already (its table
        // keeps what it found, for the prover); it is the search's own
        // unless the fast path is turned off.
        let (report, ask) = match oracle {
            Some((report, ask)) if config.fast => (report, Some(ask)),
            Some((_, ask)) => (super::solve(rules, board, config, control)?, Some(ask)),
            None => (super::solve(rules, board, config, control)?, None),
        };
        let mut header = Header {
            ruleset: rules.name().to_string(),
            convention: config.convention,
            value_cells: if config.values_on() {
                config.value_cells
            } else {
                0
            },
            whole: false,
            bounds: config.bounds && normal,
            fine: false,
            board: rules.format(board),
            claims: Claims {
                left_first: report.searched(Player::Left).then_some(report.left.wins),
                right_first: report.searched(Player::Right).then_some(report.right.wins),
            },
        };
        let firsts: Vec<(Player, Player)> = [
            (Player::Left, report.outcomes.left_first),
            (Player::Right, report.outcomes.right_first),
        ]
        .into_iter()
        .filter(|&(first, _)| report.searched(first))
        .map(|(first, wins)| (first, if wins { first } else { first.opponent() }))
        .collect();
        let records = match ask {
            Some(ask) if normal && positions == Positions::Best => {
                header.whole = true;
                if header.bounds {
                    // Lines end by the counts alone: the values of small
                    // regions end few lines more than the counts do on
                    // whole positions, and finding the regions at every
                    // position costs more than the lines they spare
                    // (cert_cost: 8 x 8 at value-cells 8 took a quarter
                    // longer to prove and half again as long to check).
                    header.value_cells = 0;
                }
                prove_whole(rules, board, &header, &firsts, ask, out)
            }
            _ => prove_split(rules, board, config, control, &header, &firsts, out),
        }?;
        Ok((report, records))
    })
}

fn write_err(e: std::io::Error) -> SearchError {
    SearchError::Write(e.to_string())
}

/// The general engine's proof on split positions.
fn prove_split<R: Knowledge>(
    rules: &R,
    board: &Board,
    config: &SearchConfig,
    control: &super::Control<'_>,
    header: &Header,
    firsts: &[(Player, Player)],
    out: &mut dyn Write,
) -> Result<u64, SearchError> {
    header.write(out).map_err(write_err)?;
    // A second pass with a table of its own walks the proof; it re-derives
    // what the first pass's table has forgotten.
    let table = Table::with_bytes(config.table_bytes);
    let zob = Zobrist::new(rules, board, config.symmetry);
    let shared = Shared {
        table: &table,
        zob: &zob,
        config,
        control,
        nodes: std::sync::atomic::AtomicU64::new(0),
        start: Instant::now(),
        last_report: std::sync::atomic::AtomicU64::new(0),
        saver: None,
        busy: None,
    };
    let mut e = Engine::new(rules, &shared)?;
    let mut proof = Proof {
        seen: PosSet::default(),
        out,
        records: 0,
        bounds: header.bounds,
    };
    for &(first, winner) in firsts {
        e.depth = 0;
        let root = e.root(board);
        e.prove(&root, first, winner, &mut proof)?;
    }
    proof.out.flush().map_err(write_err)?;
    Ok(proof.records)
}

/// The proof on whole positions: the oracle picks the winner's moves; a
/// line ends where the checker's own rules ([`Leaves`]) decide it.
fn prove_whole<R: Ruleset>(
    rules: &R,
    board: &Board,
    header: &Header,
    firsts: &[(Player, Player)],
    ask: &mut Oracle<'_>,
    out: &mut dyn Write,
) -> Result<u64, SearchError> {
    header.write(out).map_err(write_err)?;
    let bad = |e: CertError| SearchError::Inconsistent(e.to_string());
    let mut leaves =
        Leaves::new(rules, header.convention, header.value_cells, true).map_err(bad)?;
    if !header.bounds {
        leaves = leaves.without_counts();
    }
    let mut w = Whole {
        rules,
        leaves: &mut leaves,
        ask,
        seen: PosSet::default(),
        out,
        records: 0,
    };
    for &(first, winner) in firsts {
        w.prove(board, first, winner, true)?;
    }
    w.out.flush().map_err(write_err)?;
    Ok(w.records)
}

/// The state of [`prove_whole`].
struct Whole<'a, 'c, 'r, 'o, 'd, R: Ruleset> {
    rules: &'a R,
    leaves: &'c mut Leaves<'r, R>,
    ask: &'o mut Oracle<'d>,
    seen: PosSet,
    out: &'a mut dyn Write,
    records: u64,
}

impl<R: Ruleset> Whole<'_, '_, '_, '_, '_, R> {
    /// Whether `mover` wins `b` where the proof may end without a record.
    fn leaf(&mut self, b: &Board, mover: Player) -> Result<Option<bool>, SearchError> {
        let zero = self.leaves.values.zero();
        let by_rules = self
            .leaves
            .leaf(b, zero, mover)
            .map_err(|e| SearchError::Inconsistent(e.to_string()))?;
        Ok(by_rules.map(|(w, _)| w))
    }

    /// Record `winner`'s strategy from `board` with `mover` to move.
    fn prove(
        &mut self,
        board: &Board,
        mover: Player,
        winner: Player,
        root: bool,
    ) -> Result<(), SearchError> {
        // Leaves are not remembered: the checker's rules decide them again
        // at each transposition, and keeping them took most of the set
        // (8 x 8: 195 M positions, of which 128 M leaves).
        let key = flags(mover, winner);
        if self.seen.get(board, 0, key).is_some() {
            return Ok(()); // proved already (a transposition)
        }
        if !root && self.leaf(board, mover)?.is_some() {
            return Ok(());
        }
        self.seen.add(board, 0, key);
        let rules = self.rules;
        let mut opts = Vec::new();
        rules.options(board, mover, |o| opts.push(o));
        let other = mover.opponent();
        if mover != winner {
            for o in &opts {
                self.prove(o, other, winner, false)?;
            }
            return Ok(());
        }
        let mut chosen = None;
        // A move after which the checker's rules end the line at once: by
        // the counts alone where they are on (the values of small regions
        // cost more to find). Any such move will do: the rules' order.
        let zero = self.leaves.values.zero();
        let counts = self.leaves.counts_on();
        for (i, o) in opts.iter().enumerate() {
            let at_once = if counts {
                self.leaves.loses_by_counts(o, zero, other)
            } else {
                self.leaf(o, other)? == Some(false)
            };
            if at_once {
                chosen = Some(i);
                break;
            }
        }
        if chosen.is_none() {
            // Otherwise the first winning move in the search's order.
            opts.sort_by_cached_key(|o| std::cmp::Reverse(rules.safety_score(o, mover)));
            for (i, o) in opts.iter().enumerate() {
                if !(self.ask)(o, other)? {
                    chosen = Some(i);
                    break;
                }
            }
        }
        let Some(i) = chosen else {
            return Err(SearchError::Inconsistent(format!(
                "no winning move found for {mover:?} at {}",
                rules.format(board)
            )));
        };
        self.records += 1;
        RecordRef {
            mover,
            board: &rules.format(board),
            tail: "0",
            on_board: true,
            to: &rules.format(&opts[i]),
        }
        .write(self.out)
        .map_err(write_err)?;
        self.prove(&opts[i], other, winner, false)
    }
}

/// Solve `board` (one thread) and return the certificate in memory (see
/// [`write_certificate`]).
pub fn solve_with_certificate<R: Knowledge>(
    rules: &R,
    board: &Board,
    config: &SearchConfig,
    control: &super::Control<'_>,
) -> Result<(SearchReport, Certificate), SearchError> {
    solve_with_certificate_as(rules, board, config, control, Positions::Best)
}

/// [`solve_with_certificate`] keeping `positions`.
pub fn solve_with_certificate_as<R: Knowledge>(
    rules: &R,
    board: &Board,
    config: &SearchConfig,
    control: &super::Control<'_>,
    positions: Positions,
) -> Result<(SearchReport, Certificate), SearchError> {
    let mut text = Vec::new();
    let (report, _) = write_certificate_as(rules, board, config, control, &mut text, positions)?;
    let cert = std::str::from_utf8(&text)
        .map_err(|e| SearchError::Inconsistent(e.to_string()))
        .and_then(|t| {
            Certificate::parse(t).map_err(|e| SearchError::Inconsistent(e.to_string()))
        })?;
    Ok((report, cert))
}
