//! The per-row seal: since store format 3, a MAC under the user's key
//! ([`partizan_seal::user_key`]; BLAKE3 keyed, 16 bytes) over the table
//! (the ruleset, or `"census"` or `"runs"`), the key and the row's body
//! together, so a flipped bit anywhere in a stored row, a row found under
//! the wrong key, a row edited by hand with every checksum recomputed, or
//! a store file brought from a machine with another key, never passes for
//! a value. Format 2 sealed rows with CRC-64/XZ (the ECMA-182 polynomial,
//! reflected, as used by xz), which catches damage but not a deliberate
//! edit; [`unseal_v2`] reads those rows once, when such a store is carried
//! forward (whose values are then checked again, not believed).

/// The reflected ECMA-182 polynomial.
const POLY: u64 = 0xc96c_5795_d787_0f42;

const fn table() -> [u64; 256] {
    let mut t = [0u64; 256];
    let mut i = 0;
    while i < 256 {
        let mut c = i as u64;
        let mut k = 0;
        while k < 8 {
            c = if c & 1 == 1 { (c >> 1) ^ POLY } else { c >> 1 };
            k += 1;
        }
        t[i] = c;
        i += 1;
    }
    t
}

static TABLE: [u64; 256] = table();

/// A running CRC-64/XZ.
#[derive(Clone, Debug)]
pub struct Crc64(u64);

impl Default for Crc64 {
    fn default() -> Self {
        Crc64(u64::MAX)
    }
}

impl Crc64 {
    /// A fresh checksum.
    pub fn new() -> Self {
        Self::default()
    }

    /// Feed bytes.
    pub fn update(&mut self, bytes: &[u8]) -> &mut Self {
        let mut c = self.0;
        for &b in bytes {
            c = TABLE[((c ^ u64::from(b)) & 0xff) as usize] ^ (c >> 8);
        }
        self.0 = c;
        self
    }

    /// Feed a length-prefixed field (so field boundaries are part of the sum).
    pub fn field(&mut self, bytes: &[u8]) -> &mut Self {
        self.update(&(bytes.len() as u64).to_le_bytes())
            .update(bytes)
    }

    /// The checksum of what was fed.
    pub fn finish(&self) -> u64 {
        self.0 ^ u64::MAX
    }
}

/// The checksum of one stored row: its table's name (the ruleset, or
/// `"census"`), its key and its body.
pub fn row_checksum(table: &str, key: &[u8], body: &[u8]) -> u64 {
    Crc64::new()
        .field(table.as_bytes())
        .field(key)
        .field(body)
        .finish()
}

/// Bytes of a row's MAC.
pub const ROW_MAC_LEN: usize = 16;

/// The MAC's domain: a row's MAC verifies nothing else.
const ROW_DOMAIN: &str = "partizan store row v3";

fn row_mac(k: &partizan_seal::Key, table: &str, key: &[u8], body: &[u8]) -> partizan_seal::Mac {
    let mut m = k.mac(ROW_DOMAIN);
    m.field(table.as_bytes()).field(key).field(body);
    m
}

/// `body` followed by its MAC under the user's key ([`ROW_MAC_LEN`]
/// bytes): what is stored.
pub fn seal(table: &str, key: &[u8], body: &[u8]) -> Vec<u8> {
    seal_with(&partizan_seal::user_key().key, table, key, body)
}

/// [`seal`] under the key `k`.
pub fn seal_with(k: &partizan_seal::Key, table: &str, key: &[u8], body: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(body.len() + ROW_MAC_LEN);
    out.extend_from_slice(body);
    out.extend_from_slice(&row_mac(k, table, key, body).finish()[..ROW_MAC_LEN]);
    out
}

/// The body of a sealed row if its MAC under the user's key holds for
/// this table and key.
pub fn unseal<'a>(table: &str, key: &[u8], stored: &'a [u8]) -> Option<&'a [u8]> {
    let split = stored.len().checked_sub(ROW_MAC_LEN)?;
    let (body, tag) = stored.split_at(split);
    row_mac(&partizan_seal::user_key().key, table, key, body)
        .verify(tag)
        .then_some(body)
}

/// The body of a row sealed by store format 2 (its CRC-64) if the checksum
/// holds: damage is caught, a deliberate edit is not, so what it reads is
/// checked again before it is kept.
pub fn unseal_v2<'a>(table: &str, key: &[u8], stored: &'a [u8]) -> Option<&'a [u8]> {
    let split = stored.len().checked_sub(8)?;
    let (body, sum) = stored.split_at(split);
    let mut b = [0u8; 8];
    b.copy_from_slice(sum);
    (u64::from_le_bytes(b) == row_checksum(table, key, body)).then_some(body)
}

/// A row sealed as format 2 did (for tests of carrying such stores
/// forward).
pub fn seal_v2(table: &str, key: &[u8], body: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(body.len() + 8);
    out.extend_from_slice(body);
    out.extend_from_slice(&row_checksum(table, key, body).to_le_bytes());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_check_value() {
        // The published check value of CRC-64/XZ for "123456789".
        assert_eq!(
            Crc64::new().update(b"123456789").finish(),
            0x995d_c9bb_df19_39fa
        );
        assert_eq!(Crc64::new().finish(), 0);
    }

    #[test]
    fn a_row_sealed_with_another_key_or_by_crc_alone_is_not_unsealed() {
        let body = b"some record body";
        let other = partizan_seal::Key::from_bytes([9; 32]);
        assert!(unseal(
            "domineering",
            &[1],
            &seal_with(&other, "domineering", &[1], body)
        )
        .is_none());
        // A format-2 row, its CRC right: not a v3 row.
        assert!(unseal("domineering", &[1], &seal_v2("domineering", &[1], body)).is_none());
        assert_eq!(
            unseal_v2("domineering", &[1], &seal_v2("domineering", &[1], body)),
            Some(&body[..])
        );
    }

    #[test]
    fn every_single_bit_flip_is_caught() {
        let sealed = seal("domineering", &[1, 2, 2, 7, 0, 0], b"some record body");
        assert!(unseal("domineering", &[1, 2, 2, 7, 0, 0], &sealed).is_some());
        for i in 0..sealed.len() * 8 {
            let mut s = sealed.clone();
            s[i / 8] ^= 1 << (i % 8);
            assert!(
                unseal("domineering", &[1, 2, 2, 7, 0, 0], &s).is_none(),
                "bit {i}"
            );
        }
        // The same row under another key or table fails too.
        assert!(unseal("domineering", &[1, 2, 2, 6, 0, 0], &sealed).is_none());
        assert!(unseal("cram", &[1, 2, 2, 7, 0, 0], &sealed).is_none());
        assert!(unseal("cram", &[], &[1, 2, 3]).is_none());
    }
}
