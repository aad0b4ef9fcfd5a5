//! The position-graph identity the explorer asserts before it draws a split
//! board: the whole board's position graph is the product of its regions'
//! graphs (every position of the whole is a tuple of positions of the parts).
//! The counts are computed separately; when the product is not the whole the
//! page refuses to draw and states the two numbers instead.

/// The outcome of checking the identity on one board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Identity {
    /// The whole board's count equals the product of the regions' counts.
    Holds {
        /// Positions in the whole board's graph.
        whole: u128,
        /// Product of the regions' position counts.
        product: u128,
    },
    /// They differ (or the product does not fit in 128 bits: `product` None).
    Fails {
        /// Positions in the whole board's graph.
        whole: u128,
        /// Product of the regions' position counts, if it fits.
        product: Option<u128>,
    },
}

impl Identity {
    /// Whether the identity holds.
    pub fn holds(&self) -> bool {
        matches!(self, Identity::Holds { .. })
    }

    /// The plain statement shown in place of a refused drawing.
    pub fn statement(&self) -> String {
        match self {
            Identity::Holds { whole, product } => format!(
                "The whole board's position graph has {whole} positions, the product of the regions' graphs is {product}: the identity holds."
            ),
            Identity::Fails { whole, product } => format!(
                "Refused: the whole board's position graph has {whole} positions but the product of the regions' graphs is {}. The drawing is withheld because the identity it illustrates fails here.",
                product.map(|p| p.to_string()).unwrap_or_else(|| "larger than 2^128".to_string())
            ),
        }
    }
}

/// Check `whole == product(regions)`; the product is recomputed here from the
/// regions' own counts rather than trusted from whoever reported it.
pub fn check_identity(whole: u128, regions: &[u128]) -> Identity {
    let mut product: Option<u128> = Some(1);
    for &r in regions {
        product = product.and_then(|p| p.checked_mul(r));
    }
    match product {
        Some(p) if p == whole => Identity::Holds { whole, product: p },
        p => Identity::Fails { whole, product: p },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holds_on_a_true_product() {
        // Two 2x4 halves of 108 positions each and nothing else.
        assert_eq!(
            check_identity(11_664, &[108, 108]),
            Identity::Holds {
                whole: 11_664,
                product: 11_664
            }
        );
        assert!(check_identity(1, &[]).holds());
    }

    #[test]
    fn fails_on_a_forged_count() {
        let id = check_identity(2_916, &[108, 108]);
        assert_eq!(
            id,
            Identity::Fails {
                whole: 2_916,
                product: Some(11_664)
            }
        );
        let s = id.statement();
        assert!(s.contains("2916") && s.contains("11664") && s.starts_with("Refused"));
    }

    #[test]
    fn fails_on_overflow() {
        let id = check_identity(5, &[u128::MAX, 2]);
        assert_eq!(
            id,
            Identity::Fails {
                whole: 5,
                product: None
            }
        );
        assert!(id.statement().contains("2^128"));
    }
}
