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
    /// `value - reduced`, an infinitesimal.
    pub infinitesimal_part: GameId,
    /// Left and right incentives.
    pub incentives: Incentives,
    /// Frozen value (cooled by its own temperature).
    pub frozen: GameId,
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
        Ok(Toolkit {
            value: a,
            size: self.size_summary(a),
            outcome: self.outcome(a),
            left_stop: self.left_stop(a),
            right_stop: self.right_stop(a),
            mean: self.try_mean(a)?,
            temperature: self.try_temperature(a)?,
            infinitesimal: self.is_infinitesimal(a),
            all_small: self.is_all_small(a),
            atomic_weight,
            two_ahead,
            reduced: self.reduced(a)?,
            infinitesimal_part: self.infinitesimal_part(a)?,
            incentives: self.incentives(a)?,
            frozen,
            thermograph: self.thermograph(a)?,
        })
    }
}
