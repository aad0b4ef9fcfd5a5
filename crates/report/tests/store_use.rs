//! The store counts a value report gives: `added` is what the run saved in
//! the file, not what the solver handed over (a store at its size limit
//! saves nothing, and says how much it did not save).

use partizan_games::Rules;
use partizan_report::{board_value, Options};
use partizan_store::Store;

const BOARD: &str = "....|....|...#";

#[test]
fn added_counts_only_what_was_saved() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("s.sqlite")).unwrap();
    let plain = board_value(Rules::Domineering, BOARD, &Options::default()).unwrap();

    // A limit the empty store already meets: the value is the same, nothing saved.
    store
        .set_size_limit(Some(store.file_bytes().unwrap()))
        .unwrap();
    let opts = Options {
        store: Some(&store),
        ..Options::default()
    };
    let full = board_value(Rules::Domineering, BOARD, &opts).unwrap();
    assert_eq!(full.value, plain.value);
    let u = full.store.as_ref().unwrap();
    assert!(full.stats.store_added > 0, "the solver handed values over");
    assert_eq!(u.added, 0, "a full store saves nothing");
    assert_eq!(u.not_saved, full.stats.store_added);
    assert_eq!(store.stats().unwrap().total_regions, 0);
    assert!(full
        .render_text(true, None)
        .contains(&format!("added 0  not saved {} (size limit)", u.not_saved)));

    // No limit: everything handed over is saved, and the file holds it.
    store.set_size_limit(None).unwrap();
    let room = board_value(Rules::Domineering, BOARD, &opts).unwrap();
    let u = room.store.as_ref().unwrap();
    assert_eq!(u.not_saved, 0);
    assert!(u.added > 0);
    assert_eq!(u.added, room.stats.store_added);
    assert_eq!(store.stats().unwrap().total_regions, u.added);
    assert!(!room.render_text(true, None).contains("not saved"));

    // Again: all from the store, nothing new to save.
    let again = board_value(Rules::Domineering, BOARD, &opts).unwrap();
    assert_eq!(again.store.as_ref().unwrap().added, 0);
    assert_eq!(again.value, plain.value);
}
