//! The per-record checksum: CRC-64/XZ (the ECMA-182 polynomial, reflected,
//! as used by xz), computed over the ruleset, the key and the record body
//! together, so a flipped bit anywhere in a stored row, or a row found
//! under the wrong key, never passes for a value.

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

/// `body` followed by its row checksum (8 bytes, little-endian): what is stored.
pub fn seal(table: &str, key: &[u8], body: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(body.len() + 8);
    out.extend_from_slice(body);
    out.extend_from_slice(&row_checksum(table, key, body).to_le_bytes());
    out
}

/// The body of a sealed row if its checksum holds for this table and key.
pub fn unseal<'a>(table: &str, key: &[u8], stored: &'a [u8]) -> Option<&'a [u8]> {
    let split = stored.len().checked_sub(8)?;
    let (body, sum) = stored.split_at(split);
    let mut b = [0u8; 8];
    b.copy_from_slice(sum);
    (u64::from_le_bytes(b) == row_checksum(table, key, body)).then_some(body)
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
