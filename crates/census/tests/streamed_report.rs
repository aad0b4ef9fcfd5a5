//! `DirStore::report`, the atlas report from the level files streamed (what
//! `partizan atlas report` runs: the atlas to 19 cells does not fit in
//! memory), is the report of the atlas loaded whole, and refuses levels that
//! are not the catalogue.

use partizan_census::atlas::{Atlas, AtlasConfig, AtlasError};
use partizan_census::atlas_store::{decode_level, encode_level};
use partizan_census::DirStore;

fn built(cells: usize) -> (tempfile::TempDir, Atlas) {
    let dir = tempfile::tempdir().unwrap();
    let atlas = Atlas::build(
        &AtlasConfig {
            keep_entries: true,
            ..AtlasConfig::new(cells)
        },
        &mut DirStore::new(dir.path()),
    )
    .unwrap();
    (dir, atlas)
}

#[test]
fn the_streamed_report_is_the_loaded_atlas_report() {
    let (dir, atlas) = built(11);
    let mut store = DirStore::new(dir.path());
    for hottest in [0, 1, 10, 40] {
        for max in [1, 4, 9, 11] {
            let mut sizes = Vec::new();
            let streamed = store
                .report(Some(max), hottest, &mut |c| sizes.push(c))
                .unwrap();
            let loaded = store.load_atlas(Some(max)).unwrap().report(hottest);
            assert_eq!(
                streamed.to_json().unwrap(),
                loaded.to_json().unwrap(),
                "to {max} cells, {hottest} hottest"
            );
            assert_eq!(sizes, (1..=max).collect::<Vec<_>>());
        }
    }
    // and the atlas as built, never written
    let whole = store.report(None, 10, &mut |_| {}).unwrap();
    assert_eq!(
        whole.to_json().unwrap(),
        atlas.report(10).to_json().unwrap()
    );
    assert_eq!(whole.max_cells, 11);
}

#[test]
fn the_streamed_report_refuses_a_forged_or_damaged_level() {
    let (dir, atlas) = built(8);
    let base: u64 = atlas.stats[..6].iter().map(|s| s.new_values).sum();
    let path = dir.path().join("level-07.pzal");
    let good = std::fs::read(&path).unwrap();
    // a class left out, the file well formed and its checksum right
    let mut level = decode_level(&good, "level 7", 7, None, base as u32).unwrap();
    level.entries.remove(10);
    std::fs::write(&path, encode_level(&level, None)).unwrap();
    // not the file its seal names: refused by the seal
    let err = DirStore::new(dir.path())
        .report(None, 10, &mut |_| {})
        .unwrap_err();
    assert!(matches!(err, AtlasError::Unsealed { .. }), "{err}");
    assert!(err.to_string().contains("level-07.pzal"), "{err}");
    // sealed by a holder of the key: the catalogue check refuses it
    DirStore::new(dir.path()).seal_as_written(&path).unwrap();
    let err = DirStore::new(dir.path())
        .report(None, 10, &mut |_| {})
        .unwrap_err()
        .to_string();
    assert!(err.contains("catalogue"), "{err}");
    // a forgery without a seal is refused by adoption's checks too
    std::fs::remove_file(dir.path().join("level-07.pzal.seal")).unwrap();
    let err = DirStore::new(dir.path())
        .adopt(None, 4, &mut |_| {})
        .unwrap_err()
        .to_string();
    assert!(err.contains("catalogue"), "{err}");
    assert!(!dir.path().join("level-07.pzal.seal").exists());
    DirStore::new(dir.path()).seal_as_written(&path).unwrap();
    // a flipped bit: the checksum
    let mut bad = good.clone();
    let at = bad.len() / 2;
    bad[at] ^= 0x10;
    std::fs::write(&path, &bad).unwrap();
    let err = DirStore::new(dir.path())
        .report(None, 10, &mut |_| {})
        .unwrap_err()
        .to_string();
    assert!(err.contains("level-07"), "{err}");
    std::fs::write(&path, &good).unwrap();
    // the good bytes under the forgery's seal: refused
    let err = DirStore::new(dir.path())
        .report(None, 10, &mut |_| {})
        .unwrap_err();
    assert!(matches!(err, AtlasError::Unsealed { .. }), "{err}");
    DirStore::new(dir.path()).seal_as_written(&path).unwrap();
    assert!(DirStore::new(dir.path())
        .report(None, 10, &mut |_| {})
        .is_ok());
}
