//! `SearchConfig::first`: a search of one first player gives that
//! player's answer as a search of both does (both engines, one and two
//! threads, both ways of sharing them), claims no outcome class, and does
//! less work; and each ruleset's own two-thread default.

use partizan_games::{Clobber, Cram, Domineering, Konane, Player};
use partizan_solve::outcome::Convention;
use partizan_solve::search::{solve, Control, First, Knowledge, Parallel, SearchConfig};

fn agree<R: Knowledge>(r: &R, text: &str, fast: bool) {
    let b = r.parse(text).unwrap();
    for (threads, parallel) in [
        (1, Parallel::RootSplit),
        (2, Parallel::RootSplit),
        (2, Parallel::FirstPlayers),
    ] {
        let mut cfg = SearchConfig::for_ruleset(r, Convention::Normal);
        cfg.table_bytes = 4 << 20;
        cfg.fast = fast;
        cfg.threads = threads;
        cfg.parallel = parallel;
        let both = solve(r, &b, &cfg, &Control::default()).unwrap();
        assert!(both.class().is_some());
        for (first, p) in [(First::Left, Player::Left), (First::Right, Player::Right)] {
            cfg.first = first;
            let one = solve(r, &b, &cfg, &Control::default()).unwrap();
            assert_eq!(one.class(), None, "{text}: a class from one side");
            assert!(one.searched(p) && !one.searched(p.opponent()));
            let (asked, whole, skipped) = match p {
                Player::Left => (&one.left, &both.left, &one.right),
                Player::Right => (&one.right, &both.right, &one.left),
            };
            assert_eq!(asked.wins, whole.wins, "{} {text} {first:?}", r.name());
            if let Some(m) = asked.winning_move {
                let mut legal = false;
                r.options(&b, p, |o| legal |= o == m);
                assert!(legal, "{text}: the winning move is no move");
            }
            assert_eq!(skipped.counts.nodes, 0, "the other side was searched");
            assert!(skipped.winning_move.is_none());
        }
        cfg.first = First::Both;
    }
}

#[test]
fn one_first_player_answers_as_both_do_on_both_engines() {
    for text in [
        "....|....|....",
        ".....|.....|.....|.....",
        "......|......|......|......|......",
        "#....|.....|...#.|.....",
    ] {
        agree(&Domineering, text, true);
        agree(&Domineering, text, false);
    }
    for text in ["xoxo|oxox|xoxo", "xoxox|oxoxo|xoxox", "xox.|o.ox|xoxo"] {
        agree(&Clobber, text, true);
    }
    agree(&Cram, "....|....|....", true);
    agree(&Cram, ".....|.....|.....|.....", true);
    agree(&Konane, "xoxo|o..x|xoxo|oxox", true);
}

#[test]
fn a_bad_first_player_name_is_an_error() {
    let e = "up".parse::<First>().unwrap_err();
    assert_eq!(
        e.to_string(),
        "unknown first player 'up' (expected left, right or both)"
    );
    assert_eq!("left".parse::<First>().unwrap(), First::Left);
    assert_eq!(First::default(), First::Both);
}

#[test]
fn each_ruleset_has_its_own_two_thread_default() {
    let mode = |cfg: SearchConfig| cfg.parallel;
    let n = Convention::Normal;
    // Cram is impartial: the table shares both first players' positions,
    // so splitting by first player would search one problem twice.
    for p in [
        mode(SearchConfig::for_ruleset(&Domineering, n)),
        mode(SearchConfig::for_ruleset(&Cram, n)),
    ] {
        assert_eq!(p, Parallel::RootSplit);
    }
    for p in [
        mode(SearchConfig::for_ruleset(&Clobber, n)),
        mode(SearchConfig::for_ruleset(&Konane, n)),
    ] {
        assert_eq!(p, Parallel::FirstPlayers);
    }
    // With one first player there is nothing for first-players to split.
    let mut c = SearchConfig::for_ruleset(&Clobber, n);
    assert_eq!(c.effective_parallel(), Parallel::FirstPlayers);
    c.first = First::Left;
    assert_eq!(c.effective_parallel(), Parallel::RootSplit);
}
