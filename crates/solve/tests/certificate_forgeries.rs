//! Forged certificates: a generated corpus of certificates whose claims
//! are false, every one of which the checker (`partizan_check`) must
//! refuse, over Domineering, Clobber, Toppling Dominoes and Cram; and the
//! honest certificates of the same boards, which it must accept.
//!
//! The truth of every claim comes from plain minimax on the whole board
//! (`wins_plain`), never from the search or the checker. A forgery keeps
//! the format and lies in what it claims, with records chosen to get past
//! a careless checker:
//!
//! * `flipped`: an honest proof with one claim turned round;
//! * `liar-first`, `liar-last`, `liar-random`, `liar-greedy`: a strategy
//!   tree for the false winner, every reply of the other player answered
//!   by a move picked by a rule;
//! * `transposition`: both first players claimed, the true claim with its
//!   honest records and the false one played by a liar that moves into
//!   positions the true claim's proof already holds, with the same player
//!   to move (the hole of issue 38: a checker that remembers positions
//!   proved without saying for whom believes them for the other claim);
//! * `other-board`: an honest proof under the header of another board of
//!   the same size whose claims are false;
//! * `values`: a liar's proof under `value-cells` 4 (the checker values
//!   small regions itself, so the header cannot make them say more).
//!
//! `cargo test -p partizan-solve --test all certificate_forgeries:: -- --nocapture`
//! prints the counts.

use std::collections::BTreeMap;

use partizan_games::{Board, Clobber, Cram, Domineering, Player, Ruleset, TopplingDominoes};
use partizan_solve::outcome::{wins_plain, Convention};
use partizan_solve::search::certificate::{
    check, solve_with_certificate_as, CertError, Certificate, Claims, Header, Play, Positions,
    Record,
};
use partizan_solve::search::{Control, First, Knowledge, SearchConfig};
use rustc_hash::FxHashMap;

/// The position limit of every check here: far more than any honest
/// proof of these boards needs.
const LIMIT: u64 = 2_000_000;

/// Who wins `b` moving first: (Left first, Right first), by minimax.
fn truth<R: Ruleset>(rules: &R, b: &Board) -> (bool, bool) {
    let mut memo = FxHashMap::default();
    (
        wins_plain(rules, Convention::Normal, b, Player::Left, &mut memo),
        wins_plain(rules, Convention::Normal, b, Player::Right, &mut memo),
    )
}

fn header<R: Ruleset>(rules: &R, b: &Board, value_cells: u32, claims: Claims) -> Header {
    Header {
        ruleset: rules.name().to_string(),
        convention: Convention::Normal,
        value_cells,
        whole: true,
        bounds: false,
        fine: false,
        board: rules.format(b),
        claims,
    }
}

fn honest<R: Knowledge>(rules: &R, b: &Board) -> Certificate {
    honest_of(rules, b, First::Both, None)
}

/// The honest proof of `first`'s claim (both, or one), with the ruleset's
/// own regions valued or (`value_cells` 0) none: its positions are then
/// the boards themselves, as a liar's moves reach them.
fn honest_of<R: Knowledge>(
    rules: &R,
    b: &Board,
    first: First,
    value_cells: Option<u32>,
) -> Certificate {
    let mut cfg = SearchConfig::new(Convention::Normal);
    cfg.table_bytes = 1 << 20;
    cfg.first = first;
    if let Some(v) = value_cells {
        cfg.value_cells = v;
    }
    let (_, cert) =
        solve_with_certificate_as(rules, b, &cfg, &Control::default(), Positions::Best).unwrap();
    cert
}

/// How a liar picks its move among `opts` (the positions after each).
#[derive(Copy, Clone, Debug)]
enum Pick {
    First,
    Last,
    Random,
    Greedy,
    /// Into a position of this set (the other claim's proof), if any.
    Transpose,
}

/// A strategy tree for `liar` from `b` with `first` to move: the liar's
/// picked move at each of its positions, every reply of the other player
/// followed; at most `cap` records.
#[allow(clippy::too_many_arguments)]
fn liar_records<R: Ruleset>(
    rules: &R,
    b: &Board,
    first: Player,
    liar: Player,
    pick: Pick,
    rng: &mut fastrand::Rng,
    lure: &FxHashMap<(Board, bool), ()>,
    cap: usize,
) -> Vec<Record> {
    let mut out = Vec::new();
    let mut seen = FxHashMap::default();
    let mut stack = vec![(*b, first)];
    while let Some((pos, mover)) = stack.pop() {
        if out.len() >= cap || seen.insert((pos, mover == Player::Left), ()).is_some() {
            continue;
        }
        let mut opts = Vec::new();
        rules.options(&pos, mover, |o| opts.push(o));
        if opts.is_empty() {
            continue;
        }
        let other = mover.opponent();
        if mover != liar {
            stack.extend(opts.iter().map(|&o| (o, other)));
            continue;
        }
        let i = match pick {
            Pick::First => 0,
            Pick::Last => opts.len() - 1,
            Pick::Random => rng.usize(..opts.len()),
            Pick::Greedy => (0..opts.len())
                .max_by_key(|&i| {
                    rules.mobility(&opts[i], mover) as i64 - rules.mobility(&opts[i], other) as i64
                })
                .unwrap_or(0),
            Pick::Transpose => (0..opts.len())
                .find(|&i| lure.contains_key(&(opts[i], other == Player::Left)))
                .unwrap_or(0),
        };
        out.push(Record {
            mover,
            board: rules.format(&pos),
            tail: "0".to_string(),
            play: Play::Board(rules.format(&opts[i])),
        });
        stack.push((opts[i], other));
    }
    out
}

/// Every position of an honest proof's tree, with who moves.
fn proof_positions<R: Ruleset>(rules: &R, cert: &Certificate) -> FxHashMap<(Board, bool), ()> {
    let mut out = FxHashMap::default();
    for r in &cert.records {
        if let (Ok(b), Play::Board(to)) = (rules.parse(&r.board), &r.play) {
            out.insert((b, r.mover == Player::Left), ());
            if let Ok(a) = rules.parse(to) {
                out.insert((a, r.mover != Player::Left), ());
            }
        }
    }
    out
}

/// The corpus's tally.
#[derive(Default)]
struct Tally {
    forgeries: usize,
    by_kind: BTreeMap<String, usize>,
    by_ruleset: BTreeMap<&'static str, usize>,
    honest: usize,
    /// Transposition forgeries whose false line does reach a position of
    /// the true claim's proof with the same player to move.
    transposing: usize,
}

impl Tally {
    /// `cert` claims something false: the checker must refuse it.
    fn forged<R: Ruleset>(&mut self, rules: &R, kind: &str, cert: &Certificate) {
        match check(rules, cert, LIMIT) {
            Ok(rep) => panic!(
                "a {kind} forgery of {} {} was accepted ({:?}, claims {:?}): {rep:?}",
                rules.name(),
                cert.header.board,
                cert.header.claims,
                cert.header
            ),
            Err(CertError::Refuted(_) | CertError::Limit(_)) => {}
            Err(e) => panic!("a {kind} forgery failed for another reason: {e}"),
        }
        self.forgeries += 1;
        *self.by_kind.entry(kind.to_string()).or_default() += 1;
        *self.by_ruleset.entry(rules.name()).or_default() += 1;
    }
}

/// Every kind of forgery of board `b`.
fn forge_board<R: Knowledge>(rules: &R, b: &Board, rng: &mut fastrand::Rng, tally: &mut Tally) {
    let (lt, rt) = truth(rules, b);
    let cert = honest(rules, b);
    assert_eq!(
        (
            cert.header.claims.left_first,
            cert.header.claims.right_first
        ),
        (Some(lt), Some(rt)),
        "{} {}: the search disagrees with minimax",
        rules.name(),
        rules.format(b)
    );
    check(rules, &cert, LIMIT).unwrap_or_else(|e| {
        panic!(
            "the honest proof of {} {} was refused: {e}",
            rules.name(),
            rules.format(b)
        )
    });
    tally.honest += 1;
    let claims = |l: Option<bool>, r: Option<bool>| Claims {
        left_first: l,
        right_first: r,
    };
    // Flipped claims over the honest records.
    for (l, r) in [
        (Some(!lt), Some(rt)),
        (Some(lt), Some(!rt)),
        (Some(!lt), None),
        (None, Some(!rt)),
    ] {
        let mut bad = cert.clone();
        bad.header.claims = claims(l, r);
        tally.forged(rules, "flipped", &bad);
    }
    // Liars for each false single claim.
    let no_lure = FxHashMap::default();
    for first in [Player::Left, Player::Right] {
        let wins = if first == Player::Left { lt } else { rt };
        // The false claim: the loser wins.
        let liar = if wins { first.opponent() } else { first };
        let claim = match first {
            Player::Left => claims(Some(!wins), None),
            Player::Right => claims(None, Some(!wins)),
        };
        for (kind, pick) in [
            ("liar-first", Pick::First),
            ("liar-last", Pick::Last),
            ("liar-random", Pick::Random),
            ("liar-greedy", Pick::Greedy),
        ] {
            for value_cells in [0, 4] {
                let records = liar_records(rules, b, first, liar, pick, rng, &no_lure, 4000);
                let forged = Certificate {
                    header: header(rules, b, value_cells, claim),
                    records,
                };
                let kind = if value_cells > 0 { "values" } else { kind };
                tally.forged(rules, kind, &forged);
            }
        }
        // The transposition: the other first player's claim true, with
        // its honest records; this one false, its liar moving into the
        // true proof's positions.
        let (other_first, other_wins) = match first {
            Player::Left => (First::Right, rt),
            Player::Right => (First::Left, lt),
        };
        let mut both = honest_of(rules, b, other_first, Some(0));
        let lure = proof_positions(rules, &both);
        let records = liar_records(rules, b, first, liar, Pick::Transpose, rng, &lure, 4000);
        let transposes = records.iter().any(|r| match &r.play {
            Play::Board(to) => rules
                .parse(to)
                .is_ok_and(|a| lure.contains_key(&(a, r.mover != Player::Left))),
            _ => false,
        });
        tally.transposing += usize::from(transposes);
        both.header.claims = match first {
            Player::Left => claims(Some(!wins), Some(other_wins)),
            Player::Right => claims(Some(other_wins), Some(!wins)),
        };
        both.records.extend(records);
        tally.forged(rules, "transposition", &both);
    }
}

/// Random boards of each ruleset, forged; the other-board forgeries pair
/// boards of one size whose outcomes differ.
fn forge_ruleset<R: Knowledge>(rules: &R, boards: &[String], tally: &mut Tally, seed: u64) {
    let mut rng = fastrand::Rng::with_seed(seed);
    // Boards by size (width, height), each with its outcomes.
    type BySize = BTreeMap<(usize, usize), Vec<(Board, (bool, bool))>>;
    let mut by_size = BySize::new();
    for text in boards {
        let b = rules.parse(text).unwrap();
        forge_board(rules, &b, &mut rng, tally);
        by_size
            .entry((b.width(), b.height()))
            .or_default()
            .push((b, truth(rules, &b)));
    }
    for group in by_size.values() {
        for (b, t) in group {
            let Some((other, _)) = group.iter().find(|(_, u)| u != t) else {
                continue;
            };
            let mut bad = honest(rules, b);
            bad.header.board = rules.format(other);
            tally.forged(rules, "other-board", &bad);
        }
    }
}

fn random_text(rng: &mut fastrand::Rng, rows: usize, cols: usize, glyphs: &[char]) -> String {
    (0..rows)
        .map(|_| {
            (0..cols)
                .map(|_| glyphs[rng.usize(..glyphs.len())])
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("|")
}

#[test]
fn a_thousand_forgeries_are_refused() {
    let mut tally = Tally::default();
    let mut rng = fastrand::Rng::with_seed(38);
    let mut boards = |glyphs: &[char], sizes: &[(usize, usize)], n: usize| -> Vec<String> {
        (0..n)
            .map(|i| {
                let (r, c) = sizes[i % sizes.len()];
                random_text(&mut rng, r, c, glyphs)
            })
            .collect()
    };
    let domineering = boards(&['.', '.', '.', '#'], &[(3, 3), (3, 4), (4, 3), (4, 4)], 12);
    let cram = boards(&['.', '.', '.', '#'], &[(3, 3), (3, 4), (4, 4)], 12);
    let clobber = boards(&['x', 'o', 'x', 'o', '.'], &[(2, 4), (3, 3), (3, 4)], 12);
    let toppling = boards(
        &['L', 'R', 'G', 'L', 'R'],
        &[(1, 6), (1, 8), (2, 5), (1, 10)],
        12,
    );
    forge_ruleset(&Domineering, &domineering, &mut tally, 1);
    forge_ruleset(&Cram, &cram, &mut tally, 2);
    forge_ruleset(&Clobber, &clobber, &mut tally, 3);
    forge_ruleset(&TopplingDominoes, &toppling, &mut tally, 4);
    eprintln!(
        "{} forgeries refused ({:?}; by kind {:?}), {} transposing; {} honest proofs accepted",
        tally.forgeries, tally.by_ruleset, tally.by_kind, tally.transposing, tally.honest
    );
    assert!(tally.forgeries >= 1000, "{} forgeries", tally.forgeries);
    for (name, n) in &tally.by_ruleset {
        assert!(*n >= 200, "{name}: {n} forgeries");
    }
    assert!(
        tally.transposing > 0,
        "no transposing forgery was generated"
    );
}

/// A true strategy for `winner` from `b` with `first` to move, by
/// minimax (the first winning move in the rules' order), opening with
/// `opening` if given.
fn strategy<R: Ruleset>(
    rules: &R,
    b: &Board,
    first: Player,
    winner: Player,
    opening: Option<Board>,
) -> Vec<Record> {
    let mut memo = FxHashMap::default();
    let mut out = Vec::new();
    let mut seen = FxHashMap::default();
    let mut stack = vec![(*b, first)];
    while let Some((pos, mover)) = stack.pop() {
        if seen.insert((pos, mover == Player::Left), ()).is_some() {
            continue;
        }
        let mut opts = Vec::new();
        rules.options(&pos, mover, |o| opts.push(o));
        let other = mover.opponent();
        if mover != winner {
            stack.extend(opts.iter().map(|&o| (o, other)));
            continue;
        }
        let choice = match opening.filter(|_| pos == *b) {
            Some(o) => Some(o),
            None => opts
                .iter()
                .copied()
                .find(|o| !wins_plain(rules, Convention::Normal, o, other, &mut memo)),
        };
        if let Some(o) = choice {
            out.push(Record {
                mover,
                board: rules.format(&pos),
                tail: "0".to_string(),
                play: Play::Board(rules.format(&o)),
            });
            stack.push((o, other));
        }
    }
    out
}

/// Issue 38's own forgery: the Toppling Dominoes row claimed N (its class
/// is L) with a true proof of Left's win and, for Right moving first, a
/// first move onto a position that Left's proof holds with Left to move
/// (where a checker keying proved positions without their winner never
/// looks again). Each of Left's winning openings gives a proof; every
/// Right first move landing in one is forged.
#[test]
fn the_toppling_dominoes_forgery_of_issue_38_is_refused() {
    let rules = TopplingDominoes;
    let b = rules.parse("LR.LLRRGRLLGGGLL").unwrap();
    assert_eq!(truth(&rules, &b), (true, false), "the row's class is L");
    let mut memo = FxHashMap::default();
    let mut openings = Vec::new();
    rules.options(&b, Player::Left, |o| {
        if !wins_plain(&rules, Convention::Normal, &o, Player::Right, &mut memo) {
            openings.push(o);
        }
    });
    let mut firsts = Vec::new();
    rules.options(&b, Player::Right, |o| firsts.push(o));
    let mut forged_count = 0;
    for opening in openings {
        let left = strategy(&rules, &b, Player::Left, Player::Left, Some(opening));
        let left_to_move: Vec<Board> = left
            .iter()
            .filter(|r| r.mover == Player::Left)
            .map(|r| rules.parse(&r.board).unwrap())
            .collect();
        let claims = Claims {
            left_first: Some(true),
            right_first: Some(true),
        };
        for o in firsts.iter().filter(|o| left_to_move.contains(o)) {
            let mut records = left.clone();
            records.push(Record {
                mover: Player::Right,
                board: rules.format(&b),
                tail: "0".to_string(),
                play: Play::Board(rules.format(o)),
            });
            for whole in [true, false] {
                let mut h = header(&rules, &b, 0, claims);
                h.whole = whole;
                let forged = Certificate {
                    header: h,
                    records: records.clone(),
                };
                let e = check(&rules, &forged, LIMIT).unwrap_err();
                assert!(matches!(e, CertError::Refuted(_)), "{e}");
                // And through the text format, as `partizan check` reads it.
                let again = Certificate::parse(&forged.to_text()).unwrap();
                assert!(check(&rules, &again, LIMIT).is_err());
                forged_count += 1;
            }
            // Without the forged claim, Left's proof stands.
            let mut honest = Certificate {
                header: header(&rules, &b, 0, claims),
                records: left.clone(),
            };
            honest.header.claims.right_first = None;
            check(&rules, &honest, LIMIT).unwrap();
        }
    }
    assert!(
        forged_count > 0,
        "no Right first move lands in a proof of Left's"
    );
}
