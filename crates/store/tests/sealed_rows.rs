//! Rows that cannot be forged into belief (issue 38: the store's CRC-64,
//! like a checkpoint's CRC, stopped damage but not a deliberate edit).
//! Rows of format 3 carry a MAC under the user's key; a format-2 store is
//! carried forward with its values checked again, so an edit made with
//! its CRC recomputed is dropped or left unverified, never answered.

use std::io::Read;
use std::path::PathBuf;

use partizan_games::{Domineering, Ruleset};
use partizan_store::checksum::{seal_v2, seal_with};
use partizan_store::outcomes::outcome_key;
use partizan_store::{
    encode_board, OutcomeRead, Provenance, RegionRead, Store, StoreOptions, StoredOutcome,
};

fn unpack_v2(to: &std::path::Path) {
    let data = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/store_v2.sqlite.gz");
    let mut bytes = Vec::new();
    flate2::read::GzDecoder::new(std::fs::File::open(data).unwrap())
        .read_to_end(&mut bytes)
        .unwrap();
    std::fs::write(to, bytes).unwrap();
}

fn outcome_json(left: bool, right: bool) -> Vec<u8> {
    serde_json::to_vec(&StoredOutcome {
        ruleset: "domineering".into(),
        board: "..|..".into(),
        convention: "normal".into(),
        left_first_wins: left,
        right_first_wins: right,
        left_move: None,
        right_move: None,
        nodes: 1,
        partizan_version: "forged".into(),
        computed_at: 0,
        provenance: Provenance::Computed,
    })
    .unwrap()
}

#[test]
fn a_v2_store_edited_with_its_crc_recomputed_is_not_believed() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("store.redb");
    unpack_v2(&path);
    let two_by_two = encode_board(&Domineering.parse("..|..").unwrap());
    let one = encode_board(&Domineering.parse(".").unwrap());
    {
        // The forger's edit: 2 x 2's record (±1) replaced by a lone
        // cell's (0), and an outcome of 2 x 2 claiming P (it is N), each
        // with its CRC-64 recomputed as format 2 sealed rows.
        let c = rusqlite::Connection::open(&path).unwrap();
        let sealed: Vec<u8> = c
            .query_row(
                "SELECT record FROM regions WHERE ruleset = 'domineering' AND key = ?1",
                [&one],
                |r| r.get(0),
            )
            .unwrap();
        let body = &sealed[..sealed.len() - 8];
        c.execute(
            "UPDATE regions SET record = ?1 WHERE ruleset = 'domineering' AND key = ?2",
            rusqlite::params![seal_v2("domineering", &two_by_two, body), two_by_two],
        )
        .unwrap();
        let key = outcome_key("domineering", "normal", "..|..");
        c.execute(
            "INSERT INTO census (key, value) VALUES (?1, ?2)",
            rusqlite::params![
                key,
                seal_v2("census", key.as_bytes(), &outcome_json(false, false))
            ],
        )
        .unwrap();
    }
    for read_only in [true, false] {
        let opts = if read_only {
            StoreOptions::read_only()
        } else {
            StoreOptions::default()
        };
        let store = Store::open_with(&path, &opts).unwrap();
        let m = store.migration().expect("carried forward");
        assert_eq!(m.from, 2);
        assert!(m.skipped >= 1, "{m:?}");
        assert_eq!(store.format_version(), 3);
        // The forged value is gone (recomputed when next asked for); the
        // lone cell's true value stays.
        assert!(matches!(
            store.read_region("domineering", &two_by_two).unwrap(),
            RegionRead::Missing
        ));
        assert!(matches!(
            store.read_region("domineering", &one).unwrap(),
            RegionRead::Found(_)
        ));
        // The outcome is kept but never answered from.
        assert!(matches!(
            store.get_outcome("domineering", "normal", "..|..").unwrap(),
            OutcomeRead::Unverified(_)
        ));
    }
    // Carried forward once; the v2 file kept beside.
    assert!(dir.path().join("store.redb.v2").exists());
    assert!(Store::open(&path).unwrap().migration().is_none());
}

#[test]
fn a_row_sealed_without_the_users_key_is_damaged() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.redb");
    let store = Store::open(&path).unwrap();
    let key = outcome_key("domineering", "normal", "..|..");
    store
        .put_census(
            &key,
            &serde_json::from_slice(&outcome_json(true, true)).unwrap(),
        )
        .unwrap();
    assert!(matches!(
        store.get_outcome("domineering", "normal", "..|..").unwrap(),
        OutcomeRead::Hit(_)
    ));
    // A forger without the key: the claim flipped and sealed with another.
    let other = partizan_seal::Key::from_bytes([3; 32]);
    let c = rusqlite::Connection::open(&path).unwrap();
    c.execute(
        "UPDATE census SET value = ?1 WHERE key = ?2",
        rusqlite::params![
            seal_with(
                &other,
                "census",
                key.as_bytes(),
                &outcome_json(false, false)
            ),
            key
        ],
    )
    .unwrap();
    assert!(matches!(
        store.get_outcome("domineering", "normal", "..|..").unwrap(),
        OutcomeRead::Damaged(_)
    ));
    let _ = Domineering.name();
}
