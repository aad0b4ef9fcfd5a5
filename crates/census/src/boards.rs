//! Boards of several regions: sums of 1 to 4 catalogue shapes.
//!
//! A board's value is the sum of its regions' values; its count and interval
//! are the sums of theirs. For every board worth a number the report says
//! whether the count is exact and whether the interval contains the value;
//! for the others whether the count lies between the stops and whether the
//! interval meets them.
//!
//! Boards are ordered tuples of catalogue shapes (repetition allowed). With
//! `k` regions over a catalogue of `m` shapes there are `m^k` of them: all are
//! visited when that is at most `exhaustive_limit`, otherwise `samples` are
//! drawn uniformly with a [`SplitMix64`] seeded by `seed` (the exhaustive
//! tally is exactly what the sampler estimates).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use partizan_core::{Arena, Dyadic};
use serde::Serialize;

use crate::census::{Census, CensusError};
use crate::rng::SplitMix64;

/// The most regions a board of the census adds up ([`BoardConfig::max_regions`]):
/// sums of hot values grow exponentially with their number (30 switches
/// summed make a form of two billion characters), and every region count
/// up to it is sampled in turn. The essays' boards have 1 to 4.
pub const MAX_BOARD_REGIONS: usize = 16;

/// How boards are chosen.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BoardConfig {
    /// Boards of 1 to `max_regions` regions (at least 1, at most
    /// [`MAX_BOARD_REGIONS`]).
    pub max_regions: usize,
    /// Boards drawn per region count when not exhaustive.
    pub samples: u64,
    /// Seed of the sampler.
    pub seed: u64,
    /// Visit every board when there are at most this many.
    pub exhaustive_limit: u64,
    /// Draw regions only from the number-valued shapes (every board is then
    /// worth a number): the setting of the essay's "45 per cent to 11".
    pub numbers_only: bool,
}

impl Default for BoardConfig {
    fn default() -> BoardConfig {
        BoardConfig {
            max_regions: 4,
            samples: 20_000,
            seed: 0x5EED_CE45_u64,
            exhaustive_limit: 20_000,
            numbers_only: false,
        }
    }
}

/// Counts over boards of one number of regions.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct BoardTally {
    /// Regions per board.
    pub regions: usize,
    /// Boards examined.
    pub boards: u64,
    /// Whether every board was visited (otherwise sampled).
    pub exhaustive: bool,
    /// Boards worth a number.
    pub numbers: u64,
    /// Number-valued boards whose summed count equals the value.
    pub exact: u64,
    /// Number-valued boards whose summed interval contains the value.
    pub contained: u64,
    /// Boards not worth a number.
    pub hot: u64,
    /// Of those, summed count between the stops of the sum.
    pub count_between_stops: u64,
    /// Of those, summed interval meets the stops of the sum.
    pub interval_meets_stops: u64,
}

/// The board tables.
#[derive(Clone, Debug, Serialize)]
pub struct BoardReport {
    /// The configuration used.
    pub config: BoardConfig,
    /// Shapes the regions were drawn from (the number-valued ones only when
    /// `config.numbers_only`).
    pub catalogue: usize,
    /// Per number of regions.
    pub by_regions: BTreeMap<usize, BoardTally>,
}

/// Tally boards of 1 to `config.max_regions` regions drawn from a census's
/// shapes, valued in the census's `arena`.
pub fn board_census(
    census: &Census,
    arena: &mut Arena,
    config: &BoardConfig,
) -> Result<BoardReport, CensusError> {
    if config.max_regions > MAX_BOARD_REGIONS {
        return Err(CensusError::Config(format!(
            "boards of up to {} regions asked; at most {MAX_BOARD_REGIONS}",
            config.max_regions
        )));
    }
    let pool: Vec<usize> = (0..census.records.len())
        .filter(|&i| !config.numbers_only || census.records[i].number.is_some())
        .collect();
    let m = pool.len() as u64;
    let mut by_regions = BTreeMap::new();
    if m == 0 {
        return Ok(BoardReport {
            config: config.clone(),
            catalogue: 0,
            by_regions,
        });
    }
    let mut rng = SplitMix64::new(config.seed);
    for k in 1..=config.max_regions.max(1) {
        let total = m.checked_pow(k as u32);
        let exhaustive = total.is_some_and(|t| t <= config.exhaustive_limit);
        let mut tally = BoardTally {
            regions: k,
            exhaustive,
            ..BoardTally::default()
        };
        let mut idx = vec![0usize; k];
        let boards = if exhaustive {
            total.unwrap_or(0)
        } else {
            config.samples
        };
        for b in 0..boards {
            if exhaustive {
                // odometer over m^k
                let mut x = b;
                for slot in idx.iter_mut() {
                    *slot = pool[(x % m) as usize];
                    x /= m;
                }
            } else {
                for slot in idx.iter_mut() {
                    *slot = pool[rng.below(m) as usize];
                }
            }
            tally_board(census, arena, &idx, &mut tally)?;
        }
        by_regions.insert(k, tally);
    }
    Ok(BoardReport {
        config: config.clone(),
        catalogue: m as usize,
        by_regions,
    })
}

fn tally_board(
    census: &Census,
    arena: &mut Arena,
    idx: &[usize],
    t: &mut BoardTally,
) -> Result<(), CensusError> {
    let (mut count, mut low, mut high) = (0i64, 0i64, 0i64);
    let mut ids = Vec::with_capacity(idx.len());
    for &i in idx {
        let r = &census.records[i];
        count += r.reading.count;
        low += r.reading.low;
        high += r.reading.high;
        ids.push(r.value);
    }
    let v = arena.sum_all(&ids)?;
    t.boards += 1;
    let (c, lo, hi) = (
        Dyadic::from_int(count),
        Dyadic::from_int(low),
        Dyadic::from_int(high),
    );
    match arena.as_number(v) {
        Some(x) => {
            t.numbers += 1;
            t.exact += u64::from(x == c);
            t.contained += u64::from(lo <= x && x <= hi);
        }
        None => {
            t.hot += 1;
            let (ls, rs) = (arena.left_stop(v), arena.right_stop(v));
            t.count_between_stops += u64::from(rs <= c && c <= ls);
            t.interval_meets_stops += u64::from(lo <= ls && rs <= hi);
        }
    }
    Ok(())
}

impl BoardReport {
    /// The report as pretty-printed JSON.
    pub fn to_json(&self) -> Result<String, CensusError> {
        Ok(serde_json::to_string_pretty(self)?)
    }

    /// The tables as text.
    #[must_use]
    pub fn render_text(&self) -> String {
        let pct = |a: u64, b: u64| {
            if b == 0 {
                0.0
            } else {
                100.0 * a as f64 / b as f64
            }
        };
        let mut s = String::new();
        let _ = writeln!(
            s,
            "Boards of 1 to {} regions from {} {}shapes (seed {:#x}, {} samples where not exhaustive)",
            self.config.max_regions,
            self.catalogue,
            if self.config.numbers_only { "number-valued " } else { "" },
            self.config.seed,
            self.config.samples
        );
        let _ = writeln!(
            s,
            "{:>7} {:>9} {:>5} {:>8} {:>13} {:>13} {:>8} {:>13} {:>13}",
            "regions", "boards", "all?", "numbers", "exact", "contained", "hot", "between", "meets"
        );
        for t in self.by_regions.values() {
            let _ = writeln!(
                s,
                "{:>7} {:>9} {:>5} {:>8} {:>6} ({:>3.0}%) {:>6} ({:>3.0}%) {:>8} {:>6} ({:>3.0}%) {:>6} ({:>3.0}%)",
                t.regions,
                t.boards,
                if t.exhaustive { "yes" } else { "no" },
                t.numbers,
                t.exact,
                pct(t.exact, t.numbers),
                t.contained,
                pct(t.contained, t.numbers),
                t.hot,
                t.count_between_stops,
                pct(t.count_between_stops, t.hot),
                t.interval_meets_stops,
                pct(t.interval_meets_stops, t.hot)
            );
        }
        s
    }
}
