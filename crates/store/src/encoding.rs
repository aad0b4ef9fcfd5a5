//! The byte encoding of a stored value (store format v2): core's
//! [`partizan_core::serial`] encoding, the one encoding of canonical forms
//! in the workspace. It is canonical (the decoder accepts only the exact
//! bytes the encoder produces), so equal values have equal bytes and
//! non-canonical bytes are rejected.
//!
//! Before anything is built in an arena the bytes are pre-scanned against
//! hard bounds ([`MAX_NODES`], [`MAX_NIMBER`], [`MAX_UPS`], [`MAX_EXPONENT`]):
//! no region of at most 128 cells has a value anywhere near them (every move
//! of every ruleset fills or empties a cell, so a birthday is at most 128),
//! and a hostile `*100000` costs a few bytes of reading, not gigabytes.
//!
//! Examples: `0` is `50 5a 47 01 01 00 00 00` ("PZG", version 1, one node,
//! the number 0/2^0); `*` is `50 5a 47 01 01 01 00 00 00 01`.

use partizan_core::{serial, Arena, GameId};
use rustc_hash::FxHashMap;

use crate::error::{Result, StoreError};

/// The store's value-encoding version (v1 was the store's own DAG format,
/// see [`crate::v1`]; v2 is core's `serial` encoding).
pub const VALUE_ENCODING_VERSION: u8 = 2;

/// The most nodes a stored value may have.
pub const MAX_NODES: u64 = 1 << 16;
/// The largest nimber a stored value may hold.
pub const MAX_NIMBER: u32 = 256;
/// The largest multiple of up a stored value may hold (either sign).
pub const MAX_UPS: i64 = 256;
/// The largest exponent of a number's denominator a stored value may hold.
pub const MAX_EXPONENT: u64 = 256;

/// Encode a value (a canonical form in `arena`).
pub fn encode_value(arena: &mut Arena, g: GameId) -> Vec<u8> {
    serial::encode(arena, g)
}

/// Decode a value into `arena`: bounds first, then core's decoder, which
/// rejects malformed and non-canonical bytes.
pub fn decode_value(arena: &mut Arena, bytes: &[u8]) -> Result<GameId> {
    check_bounds(bytes)?;
    serial::decode(arena, bytes).map_err(|e| StoreError::BadValue(e.to_string()))
}

fn varint(b: &[u8], pos: &mut usize) -> Result<u64> {
    let mut v: u64 = 0;
    for shift in (0..64).step_by(7) {
        let byte = *b
            .get(*pos)
            .ok_or_else(|| StoreError::BadValue(format!("value cut short at byte {pos}")))?;
        *pos += 1;
        v |= u64::from(byte & 0x7f).checked_shl(shift).unwrap_or(0);
        if byte & 0x80 == 0 {
            return Ok(v);
        }
    }
    Err(StoreError::BadValue(format!(
        "varint too long at byte {pos}"
    )))
}

fn unzigzag(v: u64) -> i64 {
    ((v >> 1) as i64) ^ -((v & 1) as i64)
}

/// Reject encodings whose size or parts exceed the bounds, without building
/// anything. (Full validation is the decoder's.)
pub fn check_bounds(b: &[u8]) -> Result<()> {
    let bad = |m: String| Err(StoreError::BadValue(m));
    if b.len() < 4 || &b[..3] != serial::MAGIC {
        return bad("not a value encoding (bad magic)".into());
    }
    if b[3] != serial::VERSION {
        return bad(format!(
            "value encoding version {} is not {}",
            b[3],
            serial::VERSION
        ));
    }
    let mut pos = 4;
    let n = varint(b, &mut pos)?;
    if n == 0 || n > MAX_NODES || n > b.len() as u64 {
        return bad(format!("implausible node count {n}"));
    }
    for j in 0..n {
        let tag = *b
            .get(pos)
            .ok_or_else(|| StoreError::BadValue(format!("node {j} cut short")))?;
        pos += 1;
        match tag {
            0 | 1 => {
                let _num = varint(b, &mut pos)?;
                let exp = varint(b, &mut pos)?;
                if exp > MAX_EXPONENT {
                    return bad(format!("node {j}: exponent {exp} above {MAX_EXPONENT}"));
                }
                if tag == 1 {
                    let ups = unzigzag(varint(b, &mut pos)?);
                    let nim = varint(b, &mut pos)?;
                    if ups.unsigned_abs() > MAX_UPS as u64 {
                        return bad(format!("node {j}: {ups} ups, above {MAX_UPS}"));
                    }
                    if nim > u64::from(MAX_NIMBER) {
                        return bad(format!("node {j}: nimber *{nim} above *{MAX_NIMBER}"));
                    }
                }
            }
            2 => {
                let l = varint(b, &mut pos)?;
                let r = varint(b, &mut pos)?;
                if l.saturating_add(r) > j.saturating_mul(2) + 2 || l + r > b.len() as u64 {
                    return bad(format!("node {j}: {l}+{r} options"));
                }
                for _ in 0..l + r {
                    varint(b, &mut pos)?;
                }
            }
            t => return bad(format!("node {j}: unknown tag {t}")),
        }
    }
    Ok(())
}

/// Copies values out of a shared (`&Arena`) arena into a private one so they
/// can be encoded (core's encoder needs `&mut Arena`). The private arena is
/// renewed every [`Translator::RESET`] values to bound its memory.
#[derive(Default)]
pub struct Translator {
    arena: Arena,
    memo: FxHashMap<GameId, GameId>,
    uses: usize,
}

impl std::fmt::Debug for Translator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Translator")
            .field("uses", &self.uses)
            .finish()
    }
}

impl Translator {
    /// Values encoded per private arena.
    pub const RESET: usize = 4096;

    /// The encoding of `g`, a canonical form of `src`.
    pub fn encode(&mut self, src: &Arena, g: GameId) -> Result<Vec<u8>> {
        if self.uses >= Self::RESET {
            *self = Translator::default();
        }
        self.uses += 1;
        // Ids of `src` mean nothing in the next call (it may be another
        // arena), so the memo lives for one value only.
        self.memo.clear();
        let h = self.copy(src, g)?;
        Ok(serial::encode(&mut self.arena, h))
    }

    fn copy(&mut self, src: &Arena, g: GameId) -> Result<GameId> {
        if let Some(&h) = self.memo.get(&g) {
            return Ok(h);
        }
        let err = |e: partizan_core::ValueError| StoreError::BadValue(e.to_string());
        let h = match src.as_nus(g) {
            Some(n) => self.arena.nus(n.number, n.ups, n.nimber).map_err(err)?,
            None => {
                let l: Vec<GameId> = src.left_options(g).to_vec();
                let r: Vec<GameId> = src.right_options(g).to_vec();
                let l = l
                    .into_iter()
                    .map(|o| self.copy(src, o))
                    .collect::<Result<Vec<_>>>()?;
                let r = r
                    .into_iter()
                    .map(|o| self.copy(src, o))
                    .collect::<Result<Vec<_>>>()?;
                self.arena.construct(&l, &r).map_err(err)?
            }
        };
        self.memo.insert(g, h);
        Ok(h)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keys::to_hex;

    #[test]
    fn golden_values() {
        let mut a = Arena::new();
        for (text, hex) in [
            ("0", "505a470101000000"),
            ("*", "505a47010101000000 01"),
            ("-3/4", "505a4701010005 02"),
            ("^", "505a47010101000002 00"),
            ("{1|-1}", "505a4701 03 000200 000100 02 01 01 00 01"),
        ] {
            let g = a.parse(text).unwrap();
            let got = to_hex(&encode_value(&mut a, g));
            let want = hex.replace(' ', "");
            assert_eq!(got, want, "{text}");
        }
    }

    #[test]
    fn translator_matches_direct_encoding() {
        let mut a = Arena::new();
        let mut t = Translator::default();
        for text in [
            "0",
            "*",
            "^*",
            "{2|0||-1}",
            "{0,*|0,*2||-1}",
            "±1",
            "*7",
            "3/8",
        ] {
            let g = a.parse(text).unwrap();
            let via = t.encode(&a, g).unwrap();
            assert_eq!(via, encode_value(&mut a, g), "{text}");
            let mut b = Arena::new();
            let back = decode_value(&mut b, &via).unwrap();
            assert_eq!(b.display(back), a.display(g));
        }
    }

    #[test]
    fn translator_is_not_fooled_by_a_second_source_arena() {
        // Two arenas give the same ids to different games.
        let mut t = Translator::default();
        let mut a = Arena::new();
        let x = a.parse("{1|-1}").unwrap();
        let first = t.encode(&a, x).unwrap();
        let mut b = Arena::new();
        let y = b.parse("{*|*2}").unwrap();
        let via = t.encode(&b, y).unwrap();
        assert_eq!(via, encode_value(&mut b, y));
        assert_ne!(first, via);
    }

    #[test]
    fn huge_and_malformed_values_are_refused_cheaply() {
        let mut a = Arena::new();
        let big = a.nimber(MAX_NIMBER + 1);
        let bytes = encode_value(&mut a, big);
        assert!(check_bounds(&bytes).is_err());
        let ok = a.nimber(MAX_NIMBER);
        assert!(check_bounds(&encode_value(&mut a, ok)).is_ok());
        for bad in [
            &b""[..],
            b"PZG",
            b"PZG\x02\x01\x00\x00\x00",
            b"PZG\x01\x00",
            b"XYZ\x01\x01\x00\x00\x00",
        ] {
            assert!(decode_value(&mut a, bad).is_err(), "{bad:?}");
        }
    }
}
