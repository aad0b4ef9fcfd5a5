//! The census figures of the essay "A different question at every depth",
//! asserted. Run in the test profile (opt-level 2) it takes a second or two.

use partizan_semigroup::sylver::census::CensusSummary;
use partizan_semigroup::{census, outcomes, CensusReport, Order};

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

fn genus(r: &CensusReport, g: u32) -> &CensusSummary {
    r.by_genus
        .iter()
        .find(|s| s.label == g.to_string())
        .unwrap()
}

fn band<'a>(r: &'a CensusReport, label: &str) -> &'a CensusSummary {
    r.bands.iter().find(|s| s.label == label).unwrap()
}

#[test]
fn census_to_twenty_gaps() {
    let r = census(20, Order::Increasing).unwrap();
    let t = &r.totals;
    // 583 positions to sixteen gaps, 1,766 to twenty.
    assert_eq!(t.positions, 1766);
    let to16: u64 = r
        .by_genus
        .iter()
        .filter(|s| s.max_gaps <= 16)
        .map(|s| s.positions)
        .sum();
    assert_eq!(to16, 583);
    // The finishing search's medians.
    assert_eq!(genus(&r, 16).finishing_median_closures, 269.0);
    assert_eq!(genus(&r, 20).finishing_median_closures, 967.0);
    // No proof is cheaper than the finishing search, except the told proof on 7.
    assert_eq!(t.fresh.cheaper_than_finishing, 0);
    assert_eq!(t.kept.cheaper_than_finishing, 0);
    assert_eq!(t.two_sided.cheaper_than_finishing, 0);
    assert_eq!(t.told.cheaper_than_finishing, 7);
    assert_eq!(r.told_cheaper.len(), 7);
    // Median ratios to the finishing search: 13.6, 8.4, 5.4, 2.5.
    assert!(
        close(t.fresh.median_ratio, 13.6, 0.05),
        "{}",
        t.fresh.median_ratio
    );
    assert!(
        close(t.kept.median_ratio, 8.4, 0.05),
        "{}",
        t.kept.median_ratio
    );
    assert!(
        close(t.two_sided.median_ratio, 5.4, 0.05),
        "{}",
        t.two_sided.median_ratio
    );
    assert!(
        close(t.told.median_ratio, 2.5, 0.05),
        "{}",
        t.told.median_ratio
    );
    // Kept cheaper than fresh on 1,610; kept/fresh 0.99, 0.73, 0.59.
    assert_eq!(t.kept_cheaper_than_fresh, 1610);
    assert!(close(genus(&r, 10).kept_fresh_ratio, 0.99, 0.005));
    assert!(close(genus(&r, 16).kept_fresh_ratio, 0.73, 0.005));
    assert!(close(genus(&r, 20).kept_fresh_ratio, 0.59, 0.005));
    // Kept against finishing: 3.8, 8.2, 9.7; fresh 3.9 at ten, 18.7 at twenty.
    assert!(close(genus(&r, 10).kept.median_ratio, 3.8, 0.05));
    assert!(close(genus(&r, 16).kept.median_ratio, 8.2, 0.05));
    assert!(close(genus(&r, 20).kept.median_ratio, 9.7, 0.05));
    assert!(close(genus(&r, 10).fresh.median_ratio, 3.9, 0.05));
    assert!(close(genus(&r, 20).fresh.median_ratio, 18.7, 0.05));
    // Proved within three moves: 36.7% to twelve, 3.7% at 13-16, 5 of 732 at 19-20.
    let b12 = band(&r, "2-12");
    let b16 = band(&r, "13-16");
    let b20 = band(&r, "19-20");
    assert!(close(100.0 * b12.share_within_three, 36.7, 0.05));
    assert!(close(100.0 * b16.share_within_three, 3.7, 0.05));
    assert_eq!((b20.proved_within_three, b20.positions), (5, 732));
    // Median proof depth 5, 9, 13; deepest 9 to 17.
    assert_eq!(
        (b12.median_depth, b16.median_depth, b20.median_depth),
        (5.0, 9.0, 13.0)
    );
    assert_eq!((b12.deepest, b20.deepest), (9, 17));
    // The told proof visits the finishing search's positions (median ratio 1)
    // and evaluates each 2.9 times at the median (1.25 at ten, 3.3 at twenty).
    assert_eq!(t.told_visited_ratio, 1.0);
    assert!(close(t.told_evaluations_per_position, 2.9, 0.05));
    assert!(close(
        genus(&r, 10).told_evaluations_per_position,
        1.25,
        0.005
    ));
    assert!(close(
        genus(&r, 20).told_evaluations_per_position,
        3.3,
        0.05
    ));
    // The seven: six with gaps 1-5, then odd numbers, then one larger gap,
    // won by 7 at depth 5; the seventh has twenty gaps, depth 9.
    let mut depth5 = 0;
    for p in &r.told_cheaper {
        assert_eq!(p.told.winning_move, 7);
        let gaps = p.position.gap_list();
        let family = gaps[..5] == [1, 2, 3, 4, 5]
            && gaps[5..gaps.len() - 1].iter().all(|g| g % 2 == 1)
            && gaps[5..gaps.len() - 1].windows(2).all(|w| w[1] == w[0] + 2);
        if family {
            assert_eq!(p.told.depth, 5);
            depth5 += 1;
        } else {
            assert_eq!((p.genus, p.told.depth), (20, 9));
        }
    }
    assert_eq!(depth5, 6);
    // The report renders and serialises.
    assert!(r.to_table().contains("all"));
    assert!(serde_json::to_string(&r)
        .unwrap()
        .contains("finishing_median_closures"));
}

#[test]
fn census_in_other_orders_still_checks_out() {
    for order in [Order::Decreasing, Order::Scored] {
        let r = census(14, order).unwrap();
        assert_eq!(r.totals.positions, 318);
        assert_eq!(r.order, order);
    }
}

#[test]
fn outcomes_to_genus_twelve() {
    let r = outcomes(12).unwrap();
    let counts: Vec<u64> = r.by_genus.iter().map(|e| e.positions).collect();
    assert_eq!(counts, partizan_semigroup::tree::A007323[1..=12].to_vec());
    // <2,3> is the one position of genus 1 and is lost.
    assert_eq!((r.by_genus[0].won, r.by_genus[0].lost), (0, 1));
    assert_eq!(r.won + r.lost, r.positions);
    assert!(r.to_table().contains("genus"));
}

#[test]
fn bad_genus_is_an_error() {
    assert!(census(65, Order::Increasing).is_err());
    assert!(outcomes(65).is_err());
}

#[test]
fn the_remoteness_proof_is_priced_beside_the_four() {
    let plain = partizan_semigroup::census(12, Order::Increasing).unwrap();
    assert!(plain.totals.remoteness.is_none());
    let c = partizan_semigroup::census_with(12, Order::Increasing, true).unwrap();
    let r = c.totals.remoteness.as_ref().unwrap();
    assert!(r.median_closures > 0.0);
    // The other figures do not change.
    assert_eq!(
        c.totals.fresh.median_closures,
        plain.totals.fresh.median_closures
    );
    assert_eq!(
        c.totals.told.cheaper_than_finishing,
        plain.totals.told.cheaper_than_finishing
    );
    assert!(c
        .positions
        .iter()
        .all(|p| p.remoteness.unwrap().depth >= p.fresh.depth));
}
