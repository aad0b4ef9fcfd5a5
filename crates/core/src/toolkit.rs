//! Everything the toolkit says about one value, in one typed record, for
//! front ends (the CLI's `analyse`, the JSON report, the site's explorer).
//!
//! ```
//! use partizan_core::Arena;
//! let mut a = Arena::new();
//! let g = a.parse("{3||2*|1*}").unwrap();
//! let t = a.toolkit(g).unwrap();
//! assert_eq!(a.display(t.reduced), "{3||2|1}");
//! assert!(t.atomic_weight.is_err());
//! assert_eq!(t.mean.to_string(), "9/4");
//! ```

use std::sync::Arc;

use crate::atomic::TwoAhead;
use crate::dyadic::Dyadic;
use crate::error::{OpError, ValueError};
use crate::game::{Arena, GameId, Outcome};
use crate::size::SizeSummary;
use crate::temperature_ops::Incentives;
use crate::thermo::Thermograph;

/// Largest number of subpositions for which [`Arena::toolkit`] computes
/// incentives.
pub const INCENTIVE_LIMIT: usize = 256;

/// The readings of one value (see [`Arena::toolkit`]).
#[derive(Clone, Debug)]
pub struct Toolkit {
    /// The value itself.
    pub value: GameId,
    /// Its size, measured without printing it.
    pub size: SizeSummary,
    /// Outcome class.
    pub outcome: Outcome,
    /// Left stop.
    pub left_stop: Dyadic,
    /// Right stop.
    pub right_stop: Dyadic,
    /// Mean (the thermograph's mast).
    pub mean: Dyadic,
    /// Temperature.
    pub temperature: Dyadic,
    /// Whether both stops are zero.
    pub infinitesimal: bool,
    /// Whether every subposition has options for both players or none.
    pub all_small: bool,
    /// Atomic weight, or why it is undefined.
    pub atomic_weight: Result<GameId, OpError>,
    /// The two-ahead consequences of the atomic weight, when it exists.
    pub two_ahead: Option<TwoAhead>,
    /// Reduced canonical form.
    pub reduced: GameId,
    /// `value - reduced`, an infinitesimal: computed when the reduced form
    /// is a number or the form has at most [`INCENTIVE_LIMIT`]
    /// subpositions (otherwise it is a sum of two large games; ask
    /// [`Arena::infinitesimal_part`] directly).
    pub infinitesimal_part: Option<GameId>,
    /// Left and right incentives, when the form has at most
    /// [`INCENTIVE_LIMIT`] subpositions (each incentive is a difference of
    /// two games as large as this one, which for forms of thousands of
    /// subpositions takes minutes; ask [`Arena::incentives`] directly).
    pub incentives: Option<Incentives>,
    /// Frozen value (cooled by its own temperature).
    pub frozen: GameId,
    /// An orthodox form ([`Arena::orthodox_form`]: the same thermograph,
    /// only options some temperature makes best), when the form has at most
    /// [`INCENTIVE_LIMIT`] subpositions (ask [`Arena::orthodox_form`]
    /// directly for larger ones).
    pub orthodox_form: Option<GameId>,
    /// The thermograph (walls as exact breakpoints).
    pub thermograph: Arc<Thermograph>,
}

impl Arena {
    /// All the toolkit's readings of `a` (see [`Toolkit`]).
    pub fn toolkit(&mut self, a: GameId) -> Result<Toolkit, ValueError> {
        self.check(a)?;
        let atomic_weight = self.atomic_weight(a);
        if let Err(OpError::Value(e)) = &atomic_weight {
            return Err(e.clone());
        }
        let two_ahead = match atomic_weight {
            Ok(_) => self.two_ahead(a).ok(),
            Err(_) => None,
        };
        let frozen = match self.freeze(a) {
            Ok(f) => f,
            Err(OpError::Value(e)) => return Err(e),
            // freezing is defined for every short game (its temperature is
            // at least -1 and numbers freeze to themselves)
            Err(_) => a,
        };
        let size = self.size_summary(a);
        let incentives = if size.subpositions <= INCENTIVE_LIMIT {
            Some(self.incentives(a)?)
        } else {
            None
        };
        let reduced = self.reduced(a)?;
        let infinitesimal_part = if self.is_number(reduced) || size.subpositions <= INCENTIVE_LIMIT
        {
            Some(self.sub(a, reduced)?)
        } else {
            None
        };
        let orthodox_form = if size.subpositions <= INCENTIVE_LIMIT {
            Some(self.orthodox_form(a)?)
        } else {
            None
        };
        Ok(Toolkit {
            value: a,
            orthodox_form,
            size,
            outcome: self.outcome(a),
            left_stop: self.left_stop(a),
            right_stop: self.right_stop(a),
            mean: self.try_mean(a)?,
            temperature: self.try_temperature(a)?,
            infinitesimal: self.is_infinitesimal(a),
            all_small: self.is_all_small(a),
            atomic_weight,
            two_ahead,
            reduced,
            infinitesimal_part,
            incentives,
            frozen,
            thermograph: self.thermograph(a)?,
        })
    }
}
